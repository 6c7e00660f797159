package org.sparkmc.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Test helper: a data file's lines, and a JSON data file's numeric arrays ({"name": [numbers], "n": number}). */
public final class Json {
    private static final Pattern ARRAY = Pattern.compile("\"([^\"]+)\":\\[([^\\]]*)\\]");

    private Json() {
    }

    /** Every array of numbers in the file, by name (a tiny reader for the data sets' JSON). */
    public static Map<String, double[]> arrays(Path file) {
        String s = String.join("", lines(file)).replaceAll("\\s", "");
        Map<String, double[]> out = new LinkedHashMap<>();
        Matcher m = ARRAY.matcher(s);
        while (m.find()) {
            String[] parts = m.group(2).split(",");
            double[] v = new double[parts.length];
            for (int i = 0; i < v.length; i++) {
                v[i] = Double.parseDouble(parts[i]);
            }
            out.put(m.group(1), v);
        }
        return out;
    }

    public static List<String> lines(Path p) {
        try {
            return Files.readAllLines(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
