package org.sparkmc.core.smc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.sparkmc.core.CsvFields;
import org.sparkmc.core.DecimalNumbers;
import org.sparkmc.core.InvalidInputException;

/**
 * Reads observations from comma-separated text: an optional header line, then one row per time step with an optional
 * time column and one or more numeric observation columns. Lines starting with '#' are skipped, and so are blank lines,
 * except between the data rows of a file of one column, where a blank line is that row's empty field (as pandas writes
 * a series' NaN); fields may be double-quoted. Missing values ({@code NA}, {@code NaN}, an empty field) fail or become
 * NaN as {@link MissingObservations} says. Any other problem is an {@link InvalidInputException} naming the source, the
 * line and what was expected.
 */
public final class ObservationCsv {
    private static final Set<String> MISSING_TOKENS = Set.of("", "na", "nan", "null");
    private static final Set<String> TIME_NAMES = Set.of("t", "time");

    /**
     * @param timeColumn the header name of the time column; null picks a column named "t" or "time" if the
     *     header has one, and none otherwise
     * @param valueColumns the observation columns by header name, in order; empty takes every other column
     * @param missing what a missing observation value does
     */
    public record Options(String timeColumn, List<String> valueColumns, MissingObservations missing) {
        public Options {
            valueColumns = List.copyOf(valueColumns);
            Objects.requireNonNull(missing, "missing");
        }

        /** Time column detected by name, all other columns observed, missing values fail. */
        public static Options defaults() {
            return new Options(null, List.of(), MissingObservations.FAIL);
        }

        public Options withTimeColumn(String name) {
            return new Options(name, valueColumns, missing);
        }

        public Options withValueColumns(List<String> names) {
            return new Options(timeColumn, names, missing);
        }

        public Options withMissing(MissingObservations m) {
            return new Options(timeColumn, valueColumns, m);
        }
    }

    private ObservationCsv() {
    }

    /**
     * Reads every row of {@code reader}; {@code source} names it in messages (a file name).
     *
     * @throws InvalidInputException for malformed input (naming source and line)
     * @throws UncheckedIOException if reading fails
     */
    public static Observations read(Reader reader, String source, Options options) {
        return read(reader, source, options, new TimeOrder());
    }

    /**
     * Reads every row of {@code reader} as {@link #read(Reader, String, Options)} does; its times (if it has a time
     * column) must come after those {@code order} has seen, from earlier files of the same series.
     *
     * @throws InvalidInputException for malformed input, or a time not after the previous one (naming both lines)
     */
    public static Observations read(Reader reader, String source, Options options, TimeOrder order) {
        List<String[]> rows = new ArrayList<>();
        List<Integer> lineNumbers = new ArrayList<>();
        List<Integer> blanks = new ArrayList<>();
        String[] header = null;
        int headerLine = 0;
        try (BufferedReader in = new BufferedReader(reader)) {
            String line;
            int lineNo = 0;
            while ((line = in.readLine()) != null) {
                lineNo++;
                String trimmed = line.strip();
                if (lineNo == 1 && trimmed.startsWith("\uFEFF")) {
                    trimmed = trimmed.substring(1);
                }
                if (trimmed.isEmpty() && !rows.isEmpty()) {
                    blanks.add(lineNo); // a missing value if the rows turn out to have one field
                    continue;
                }
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                String[] fields;
                try {
                    fields = CsvFields.split(trimmed);
                } catch (IllegalArgumentException e) { // "11"20 was glued into 1120
                    throw new InvalidInputException(source + " line " + lineNo + ": " + e.getMessage(), e);
                }
                if (header == null && rows.isEmpty() && looksLikeHeader(fields)) {
                    header = fields;
                    headerLine = lineNo;
                    continue;
                }
                if (!blanks.isEmpty() && (header != null ? header.length : rows.get(0).length) == 1) {
                    for (int blank : blanks) { // as pandas writes a one-column series' NaN: the step stays in place
                        rows.add(new String[] {""});
                        lineNumbers.add(blank);
                    }
                }
                blanks.clear();
                rows.add(fields);
                lineNumbers.add(lineNo);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading observations from " + source, e);
        }
        if (rows.isEmpty()) {
            throw new InvalidInputException(source + ": no observation rows (expected a header line and one row "
                    + "of numbers per time step)");
        }
        int width = header != null ? header.length : rows.get(0).length;
        String[] names = new String[width];
        for (int c = 0; c < width; c++) {
            names[c] = header != null ? header[c] : "y" + (c + 1);
            if (names[c].isEmpty()) { // it was taken as a column named '', and a row's empty last field as missing
                throw new InvalidInputException(source + " line " + headerLine + ": column " + (c + 1) + " has no name"
                        + (c == width - 1 ? " (does the header end in a comma?)" : "") + "; every column needs one");
            }
            for (int d = 0; d < c; d++) {
                if (names[d].equals(names[c])) { // which of the two would a column option mean?
                    throw new InvalidInputException(source + " line " + headerLine + ": columns " + (d + 1) + " and "
                            + (c + 1) + " are both named '" + names[c] + "'; each column needs its own name");
                }
            }
        }
        int timeIndex = -1;
        if (options.timeColumn() != null) {
            timeIndex = indexOf(names, options.timeColumn(), source, headerLine, "time");
        } else if (header != null) {
            for (int c = 0; c < width; c++) {
                if (TIME_NAMES.contains(names[c].toLowerCase(Locale.ROOT))) {
                    timeIndex = c;
                    break;
                }
            }
        }
        List<Integer> valueIndex = new ArrayList<>();
        if (options.valueColumns().isEmpty()) {
            for (int c = 0; c < width; c++) {
                if (c != timeIndex) {
                    valueIndex.add(c);
                }
            }
        } else {
            for (String name : options.valueColumns()) {
                int c = indexOf(names, name, source, headerLine, "observation");
                if (c == timeIndex) {
                    throw new InvalidInputException(source + ": column '" + name
                            + "' cannot be both the time and an observation column");
                }
                valueIndex.add(c);
            }
        }
        if (valueIndex.isEmpty()) {
            throw new InvalidInputException(source + ": no observation column (only a time column '"
                    + names[timeIndex] + "')");
        }
        List<String> columns = new ArrayList<>();
        for (int c : valueIndex) {
            columns.add(names[c]);
        }
        double[] times = timeIndex >= 0 ? new double[rows.size()] : null;
        double[][] values = new double[rows.size()][valueIndex.size()];
        for (int r = 0; r < rows.size(); r++) {
            String[] f = rows.get(r);
            int lineNo = lineNumbers.get(r);
            if (f.length != width) {
                throw new InvalidInputException(source + " line " + lineNo + ": " + f.length + " fields, expected "
                        + width + (header != null ? " (as in the header " + String.join(",", names) + ")" : ""));
            }
            if (timeIndex >= 0) {
                double t = parse(f[timeIndex], source, lineNo, names[timeIndex], true);
                if (Double.isNaN(t)) {
                    throw new InvalidInputException(source + " line " + lineNo + ": the time column '"
                            + names[timeIndex] + "' is missing; every row needs a time");
                }
                order.next(t, f[timeIndex].strip(), names[timeIndex], source, lineNo);
                times[r] = t;
            }
            for (int k = 0; k < valueIndex.size(); k++) {
                int c = valueIndex.get(k);
                double v = parse(f[c], source, lineNo, names[c], false);
                if (Double.isNaN(v) && options.missing() == MissingObservations.FAIL) {
                    throw new InvalidInputException(source + " line " + lineNo + ": column '" + names[c]
                            + "' is missing ('" + f[c] + "'" + (width == 1 && f[c].isEmpty() ? ": a blank line, "
                            + "which in a file of one column is an empty value" : "") + "); set missing "
                            + "observations to 'skip' to treat the step as unobserved");
                }
                values[r][k] = v;
            }
        }
        return new Observations(source, columns, times, values);
    }

    private static int indexOf(String[] names, String wanted, String source, int headerLine, String role) {
        for (int c = 0; c < names.length; c++) {
            if (names[c].equals(wanted)) {
                return c;
            }
        }
        throw new InvalidInputException(source + (headerLine > 0 ? " line " + headerLine : "") + ": no " + role
                + " column '" + wanted + "'; the columns are " + String.join(",", names));
    }

    /**
     * A number, or NaN for a missing token; anything else is an error naming source, line and column (the time
     * column's does not offer NA, which it refuses: every row needs a time).
     */
    private static double parse(String field, String source, int lineNo, String column, boolean time) {
        String s = field.strip();
        if (MISSING_TOKENS.contains(s.toLowerCase(Locale.ROOT))) {
            return Double.NaN;
        }
        double v;
        try {
            v = DecimalNumbers.parse(s);
        } catch (NumberFormatException e) {
            throw new InvalidInputException(source + " line " + lineNo + ": column '" + column + "' holds '" + field
                    + "', expected a number " + (time ? "(the time column takes numbers only, not dates: give the "
                    + "time as a number such as a year or a step's index)" : "(or NA for a missing value)"));
        }
        if (Double.isInfinite(v)) {
            throw new InvalidInputException(source + " line " + lineNo + ": column '" + column + "' holds '" + field
                    + "', expected a finite number");
        }
        return v;
    }

    /**
     * A header has no numeric field and at least one name that is not a missing-value token (a data row with a stray
     * word is an error, and a first row of only missing values, such as "NA", is data).
     */
    private static boolean looksLikeHeader(String[] fields) {
        boolean named = false;
        for (String f : fields) {
            try {
                DecimalNumbers.parse(f.strip());
                return false;
            } catch (NumberFormatException e) {
                named |= !MISSING_TOKENS.contains(f.strip().toLowerCase(Locale.ROOT));
            }
        }
        return named;
    }
}
