package org.sparkmc.core.diagnostics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Test helper: finds {@code shared/data/diagnostics} and reads its files. */
final class SharedData {
    private SharedData() {
    }

    /**
     * The diagnostics vectors folder: from system property {@code sparkmc.shared.data} (set by the core Surefire
     * configuration), else {@code SPARKMC_SHARED_DATA}, else {@code ../../shared/data}, {@code ../shared/data}
     * relative to the working directory, else {@code /work/shared/data}.
     */
    static Path diagnostics() {
        List<String> tried = new ArrayList<>();
        List<String> candidates = new ArrayList<>();
        String property = System.getProperty("sparkmc.shared.data");
        if (property != null) {
            candidates.add(property);
        }
        String env = System.getenv("SPARKMC_SHARED_DATA");
        if (env != null) {
            candidates.add(env);
        }
        candidates.add("../../shared/data");
        candidates.add("../shared/data");
        candidates.add("/work/shared/data");
        for (String candidate : candidates) {
            Path dir = Path.of(candidate).resolve("diagnostics").toAbsolutePath().normalize();
            tried.add(dir.toString());
            if (Files.isRegularFile(dir.resolve("expected_values.json"))) {
                return dir;
            }
        }
        throw new IllegalStateException("shared diagnostics vectors not found (need expected_values.json); tried "
                + tried + ". Set -Dsparkmc.shared.data=<dir holding diagnostics/> or SPARKMC_SHARED_DATA.");
    }

    /** Reads a {@code chain,draw,value} file into {@code [chain][draw]} (chains and draws numbered from 1). */
    static double[][] readLongCsv(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        if (!lines.get(0).trim().equals("chain,draw,value")) {
            throw new IOException(file + ": expected header chain,draw,value, got " + lines.get(0));
        }
        int chains = 0;
        int draws = 0;
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",");
            chains = Math.max(chains, Integer.parseInt(f[0].trim()));
            draws = Math.max(draws, Integer.parseInt(f[1].trim()));
        }
        double[][] out = new double[chains][draws];
        boolean[][] seen = new boolean[chains][draws];
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",");
            int c = Integer.parseInt(f[0].trim()) - 1;
            int d = Integer.parseInt(f[1].trim()) - 1;
            out[c][d] = Double.parseDouble(f[2].trim());
            seen[c][d] = true;
        }
        for (int c = 0; c < chains; c++) {
            for (int d = 0; d < draws; d++) {
                if (!seen[c][d]) {
                    throw new IOException(file + ": missing chain " + (c + 1) + " draw " + (d + 1));
                }
            }
        }
        return out;
    }

    /**
     * Minimal CmdStan CSV reader (test code only): skips lines starting with '#' and blank lines, takes the first
     * remaining line as the column names and every further line as one draw.
     *
     * @return column name → draws, in file order
     */
    static Map<String, double[]> readCmdStanCsv(Path file) throws IOException {
        String[] header = null;
        List<double[]> rows = new ArrayList<>();
        int lineNo = 0;
        for (String line : Files.readAllLines(file)) {
            lineNo++;
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            String[] f = line.trim().split(",", -1);
            if (header == null) {
                header = f;
                continue;
            }
            if (f.length != header.length) {
                throw new IOException(file + ":" + lineNo + ": " + f.length + " fields, header has " + header.length);
            }
            double[] row = new double[f.length];
            for (int i = 0; i < f.length; i++) {
                row[i] = Double.parseDouble(f[i]);
            }
            rows.add(row);
        }
        if (header == null) {
            throw new IOException(file + ": no header row");
        }
        Map<String, double[]> columns = new LinkedHashMap<>();
        for (int j = 0; j < header.length; j++) {
            double[] col = new double[rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                col[i] = rows.get(i)[j];
            }
            columns.put(header[j], col);
        }
        return columns;
    }

    /** Reads several CmdStan CSV files (one per chain) and returns one variable as {@code [chain][draw]}. */
    static double[][] variable(List<Map<String, double[]>> chainFiles, String name) {
        double[][] out = new double[chainFiles.size()][];
        for (int c = 0; c < out.length; c++) {
            double[] col = chainFiles.get(c).get(name);
            if (col == null) {
                throw new IllegalArgumentException("no column " + name + " in chain " + (c + 1));
            }
            out[c] = col;
        }
        return out;
    }

    /** Asserts |actual − expected| ≤ relTol·|expected| with a message naming the quantity. */
    static void assertRelativelyClose(String what, double expected, double actual, double relTol) {
        double diff = Math.abs(actual - expected);
        double rel = expected == 0 ? diff : diff / Math.abs(expected);
        if (!(rel <= relTol)) {
            throw new AssertionError(String.format("%s: expected %.17g, got %.17g (relative error %.3g > %.1g)",
                    what, expected, actual, rel, relTol));
        }
    }
}
