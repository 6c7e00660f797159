package org.sparkmc.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The fields of one line of comma-separated text (RFC 4180's quoting): a field may be quoted, with {@code ""} for a
 * quote inside it and commas kept; spaces around a field are dropped. A quote that is not closed, text after a
 * closing quote ({@code "11"20}) or a quote inside an unquoted field is refused, not glued into a value.
 */
public final class CsvFields {
    private CsvFields() {
    }

    /**
     * The line's fields; a line ending in a comma ends with an empty field.
     *
     * @throws IllegalArgumentException naming the field (from 1) whose quoting is wrong and how
     */
    public static String[] split(String line) {
        List<String> out = new ArrayList<>();
        int n = line.length();
        int i = 0;
        while (true) {
            int start = i;
            while (i < n && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            if (i < n && line.charAt(i) == '"') {
                StringBuilder field = new StringBuilder();
                i = quoted(line, i + 1, field, out.size() + 1);
                while (i < n && Character.isWhitespace(line.charAt(i))) {
                    i++;
                }
                if (i < n && line.charAt(i) != ',') {
                    throw new IllegalArgumentException("field " + (out.size() + 1) + " has text after its closing "
                            + "quote");
                }
                out.add(field.toString());
            } else {
                int comma = line.indexOf(',', i);
                int end = comma < 0 ? n : comma;
                String field = line.substring(start, end).strip();
                if (field.indexOf('"') >= 0) {
                    throw new IllegalArgumentException("field " + (out.size() + 1) + " has a quote inside it but does "
                            + "not start with one (quote the whole field, with \"\" for a quote inside)");
                }
                out.add(field);
                i = end;
            }
            if (i >= n) {
                return out.toArray(String[]::new);
            }
            i++; // the comma
            if (i == n) {
                out.add("");
                return out.toArray(String[]::new);
            }
        }
    }

    /** Reads a quoted field's text from {@code i} (after its opening quote); returns the index after its closing. */
    private static int quoted(String line, int i, StringBuilder field, int number) {
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '"') {
                if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            field.append(c);
            i++;
        }
        throw new IllegalArgumentException("field " + number + " opens a quote that the line does not close");
    }
}
