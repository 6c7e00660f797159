package org.sparkmc.spark.io;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.sparkmc.core.CsvFields;
import org.sparkmc.core.DecimalNumbers;
import org.sparkmc.core.InvalidInputException;

/**
 * Parses draws from text: CmdStan CSV (one chain per file; {@code #} comment lines; a header row) or plain CSV
 * ({@code chain,draw,<parameters…>}, any chains, rows in any order, each chain's draws numbered without gaps). In
 * both, as in Parquet draws, sampler columns ending in {@code __} are skipped except {@code lp__}. Every error names
 * the file and line and what was expected.
 */
public final class DrawFiles {
    /** What chain and draw numbers must be: they are read as 32-bit ints. */
    public static final String NUMBERING = "chain and draw must be whole numbers from 1 to " + Integer.MAX_VALUE;

    /** The text formats. */
    public enum Format { CMDSTAN, CSV }

    /** One file's draws as series per (parameter, chain), or the first error found. */
    public record Parsed(String error, List<ChainSeries> series, Map<Integer, Integer> drawsPerChain)
            implements Serializable {
        static Parsed failure(String error) {
            return new Parsed(error, List.of(), new TreeMap<>());
        }
    }

    private DrawFiles() {
    }

    /** The format of a file from its first line. */
    public static Format detect(String source, String firstLine) {
        if (firstLine == null) {
            throw new InvalidInputException(source + ": empty file, expected CmdStan CSV or 'chain,draw,…' CSV");
        }
        if (firstLine.startsWith("#") || firstLine.startsWith("lp__")) {
            return Format.CMDSTAN;
        }
        if (isChainDrawHeader(firstLine)) {
            return Format.CSV;
        }
        throw new InvalidInputException(source + ":1: cannot tell the format: expected CmdStan CSV ('#' comments, "
                + "lp__ …) or a header starting 'chain,draw', found '" + abbreviate(firstLine) + "'");
    }

    /**
     * Whether a header line is sparkmc's {@code chain,draw,…} CSV layout (quotes, and spaces around the fields, which
     * the header's names drop as consensus's do, ignored: {@code chain, draw, a} is one).
     */
    public static boolean isChainDrawHeader(String line) {
        return line.replace("\"", "").replaceAll("\\s*,\\s*", ",").strip().startsWith("chain,draw");
    }

    /**
     * The parameter names a file's header declares (sampler columns other than lp__ left out).
     *
     * @throws InvalidInputException if it declares none, or two columns name the same parameter
     */
    public static List<String> parameterNames(String source, BufferedReader in, Format format) throws IOException {
        LineCounter lines = new LineCounter(in);
        String[] header = header(source, lines);
        List<Integer> columns = parameterColumns(header, format);
        List<String> names = names(header, columns);
        if (names.isEmpty()) {
            throw new InvalidInputException(source + ": the header names no parameter");
        }
        if (format == Format.CMDSTAN) {
            WarmUp.of(source, lines.settings); // another method's output is refused from the first file's comments
        }
        for (int j = 0; j < names.size(); j++) {
            if (names.get(j).isEmpty()) {
                throw new InvalidInputException(source + ":" + lines.headerLine + ": column " + (columns.get(j) + 1)
                        + " has no name" + (columns.get(j) == header.length - 1 ? " (does the header end in a comma?)"
                        : "") + "; every column needs one");
            }
        }
        Map<String, Integer> seen = new HashMap<>();
        for (int j = 0; j < names.size(); j++) {
            Integer first = seen.putIfAbsent(names.get(j), columns.get(j));
            if (first != null) {
                throw new InvalidInputException(source + ":" + lines.headerLine + ": columns " + (first + 1) + " and "
                        + (columns.get(j) + 1) + " both name parameter '" + names.get(j) + "'; each parameter needs "
                        + "its own column");
            }
        }
        return names;
    }

    /**
     * The sampler columns a file's header names after chain and draw or from the start ({@code …__} other than
     * lp__, a suffix Stan reserves for its sampler), which are not read as parameters.
     */
    public static List<String> samplerColumns(String source, BufferedReader in, Format format) throws IOException {
        String[] header = header(source, new LineCounter(in));
        List<String> sampler = new ArrayList<>();
        for (int i = firstParameterColumn(format); i < header.length; i++) {
            if (!kept(header[i])) {
                sampler.add(header[i]);
            }
        }
        return sampler;
    }

    /** The header's parameter columns (0-based): sampler columns other than lp__ left out. */
    private static List<Integer> parameterColumns(String[] header, Format format) {
        List<Integer> columns = new ArrayList<>();
        for (int i = firstParameterColumn(format); i < header.length; i++) {
            if (kept(header[i])) {
                columns.add(i);
            }
        }
        return columns;
    }

    /** The parameter names of those columns (CmdStan's a.1 as a[1]). */
    private static List<String> names(String[] header, List<Integer> columns) {
        return columns.stream().map(i -> CmdStanCsv.bracketName(header[i])).toList();
    }

    /**
     * Parses a whole file whose parameters must be {@code expected}.
     *
     * @param chain the chain id of a CmdStan file (ignored for plain CSV, whose rows name their chain)
     */
    public static Parsed parse(String source, BufferedReader in, Format format, List<String> expected, int chain)
            throws IOException {
        LineCounter lines = new LineCounter(in);
        String[] header;
        try {
            header = header(source, lines);
        } catch (InvalidInputException e) {
            return Parsed.failure(e.getMessage());
        }
        List<Integer> columns = parameterColumns(header, format);
        List<String> names = names(header, columns);
        if (!names.equals(expected)) {
            return Parsed.failure(source + ":" + lines.headerLine + ": parameters " + names
                    + " differ from the first file's " + expected);
        }
        if (format == Format.CSV && !(clean(header[0]).equals("chain") && clean(header[1]).equals("draw"))) {
            return Parsed.failure(source + ":" + lines.headerLine + ": header must start with 'chain,draw'");
        }
        WarmUp warmUp = WarmUp.NONE;
        if (format == Format.CMDSTAN) {
            try {
                warmUp = WarmUp.of(source, lines.settings);
            } catch (InvalidInputException e) {
                return Parsed.failure(e.getMessage());
            }
        }
        Map<Integer, TreeMap<Integer, double[]>> rows = new TreeMap<>();
        int sequence = 0;
        int dataRows = 0;
        boolean adaptationEnded = false;
        String line;
        while ((line = lines.next()) != null) {
            if (format == Format.CMDSTAN && !adaptationEnded && line.startsWith(WarmUp.ADAPTATION_END)) {
                adaptationEnded = true;
                if (dataRows != warmUp.rows()) {
                    return Parsed.failure(source + ":" + lines.number + ": " + warmUp.mismatch(dataRows));
                }
                continue;
            }
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            if (format == Format.CMDSTAN && ++dataRows <= warmUp.rows()) {
                continue; // a saved warm-up draw (save_warmup): not a draw from the posterior
            }
            String[] fields = line.split(",", -1);
            if (fields.length != header.length) {
                return Parsed.failure(source + ":" + lines.number + ": expected " + header.length
                        + " values as in the header, found " + fields.length);
            }
            int rowChain = chain;
            int draw = ++sequence;
            if (format == Format.CSV) {
                try {
                    rowChain = Integer.parseInt(clean(fields[0]));
                    draw = Integer.parseInt(clean(fields[1]));
                } catch (NumberFormatException e) {
                    return Parsed.failure(source + ":" + lines.number + ": " + NUMBERING + ", found '"
                            + abbreviate(fields[0]) + "', '" + abbreviate(fields[1]) + "'");
                }
                if (rowChain < 1 || draw < 1) {
                    return Parsed.failure(source + ":" + lines.number + ": chain and draw start at 1, found "
                            + rowChain + ", " + draw);
                }
            }
            double[] values = new double[columns.size()];
            for (int j = 0; j < values.length; j++) {
                String field = clean(fields[columns.get(j)]);
                try {
                    values[j] = number(field);
                } catch (NumberFormatException e) {
                    return Parsed.failure(source + ":" + lines.number + ": '" + abbreviate(field) + "' in column '"
                            + names.get(j) + "' is not a number");
                }
                if (!Double.isFinite(values[j])) {
                    return Parsed.failure(source + ":" + lines.number + ", column " + (columns.get(j) + 1) + " ('"
                            + names.get(j) + "'): " + notFinite(values[j]));
                }
            }
            if (rows.computeIfAbsent(rowChain, c -> new TreeMap<>()).put(draw, values) != null) {
                return Parsed.failure(source + ":" + lines.number + ": chain " + rowChain + " has draw " + draw
                        + " twice");
            }
        }
        if (rows.isEmpty()) {
            return Parsed.failure(source + ": no draws after the header");
        }
        List<ChainSeries> series = new ArrayList<>();
        Map<Integer, Integer> counts = new TreeMap<>();
        for (Map.Entry<Integer, TreeMap<Integer, double[]>> c : rows.entrySet()) {
            int n = c.getValue().size();
            int firstDraw = c.getValue().firstKey();
            int lastDraw = c.getValue().lastKey();
            if ((long) lastDraw - firstDraw + 1 != n) {
                int missing = firstDraw;
                while (c.getValue().containsKey(missing)) {
                    missing++;
                }
                return Parsed.failure(source + ": " + gap(c.getKey(), firstDraw, lastDraw, missing));
            }
            counts.put(c.getKey(), n);
            double[][] byParameter = new double[names.size()][n];
            int i = 0;
            for (double[] values : c.getValue().values()) {
                for (int p = 0; p < values.length; p++) {
                    byParameter[p][i] = values[p];
                }
                i++;
            }
            for (int p = 0; p < names.size(); p++) {
                series.add(new ChainSeries(p, c.getKey(), 0, byParameter[p]));
            }
        }
        return new Parsed(null, series, counts);
    }

    /** A draw's number: a decimal, or NaN and infinity as Java or as CmdStan's C++ streams write them (nan, -inf). */
    static double number(String field) {
        return switch (field.toLowerCase(java.util.Locale.ROOT)) {
            case "nan", "-nan", "+nan" -> Double.NaN;
            case "inf", "+inf", "infinity", "+infinity" -> Double.POSITIVE_INFINITY;
            case "-inf", "-infinity" -> Double.NEGATIVE_INFINITY;
            default -> DecimalNumbers.parse(field);
        };
    }

    /** What is wrong with a draw that is NaN or infinite (text and Parquet draws alike). */
    public static String notFinite(double value) {
        return "the draw is " + value + "; diagnostics need finite draws (a sampler that produced it has failed: "
                + "remove or fix that chain)";
    }

    /** The message for a chain whose draw numbers have a gap (text and Parquet draws alike). */
    public static String gap(int chain, int first, int last, int missing) {
        return "chain " + chain + " has draws " + first + " to " + last + " but not draw " + missing
                + "; draws must be numbered without gaps";
    }

    /** The header's names, quoted ones ({@code "theta[1,1]"}) whole. */
    private static String[] header(String source, LineCounter in) throws IOException {
        String line;
        while ((line = in.readLine()) != null) {
            if (!line.isBlank() && !line.startsWith("#")) {
                try {
                    return CsvFields.split(line);
                } catch (IllegalArgumentException e) {
                    throw new InvalidInputException(source + ":" + in.number + ": " + e.getMessage(), e);
                }
            }
        }
        throw new InvalidInputException(source + ": no header line (only comments or nothing)");
    }

    private static int firstParameterColumn(Format format) {
        return format == Format.CSV ? 2 : 0;
    }

    private static boolean kept(String column) {
        return column.equals("lp__") || !column.endsWith("__");
    }

    private static String clean(String field) {
        String f = field.trim();
        return f.length() >= 2 && f.startsWith("\"") && f.endsWith("\"") ? f.substring(1, f.length() - 1) : f;
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }

    /** A CmdStan comment {@code #   num_warmup = 1000 (Default)}: the key and its value. */
    private static final java.util.regex.Pattern SETTING =
            java.util.regex.Pattern.compile("#\\s*(\\w+)\\s*=\\s*(\\S+).*");

    /**
     * The warm-up draws a CmdStan file holds before its sampling draws: with {@code save_warmup = true} (or 1), one
     * row per {@code thin} of {@code num_warmup} iterations, ⌈num_warmup / thin⌉, ended by the
     * {@code # Adaptation terminated} comment when the sampler adapted; none otherwise, and none for
     * {@code algorithm = fixed_param}, which runs no warm-up though it writes those settings. Output of a method other
     * than {@code sample} or {@code generate_quantities} (variational, optimize…) holds no MCMC draws: refused.
     */
    record WarmUp(int rows, String settings) {
        static final String ADAPTATION_END = "# Adaptation terminated";
        static final WarmUp NONE = new WarmUp(0, "save_warmup = false");

        static WarmUp of(String source, Map<String, String> settings) {
            String method = settings.get("method");
            if (method != null && !method.equals("sample") && !method.equals("generate_quantities")) {
                throw new InvalidInputException(source + ": CmdStan's '" + method + "' output (method = " + method
                        + "), not MCMC draws; diagnose reads the output of method = sample (or generate_quantities)");
            }
            String save = settings.getOrDefault("save_warmup", "false");
            if (!save.equals("1") && !save.equals("true") || "fixed_param".equals(settings.get("algorithm"))) {
                return NONE; // fixed_param runs no warm-up, whatever num_warmup and save_warmup say
            }
            long warmup = whole(source, settings, "num_warmup", 1000);
            long thin = Math.max(1, whole(source, settings, "thin", 1));
            long rows = (warmup + thin - 1) / thin;
            return new WarmUp((int) Math.min(rows, Integer.MAX_VALUE), "save_warmup = " + save + ", num_warmup = "
                    + warmup + ", thin = " + thin);
        }

        private static long whole(String source, Map<String, String> settings, String key, long otherwise) {
            String value = settings.get(key);
            try {
                return value == null ? otherwise : Math.max(0, Long.parseLong(value));
            } catch (NumberFormatException e) {
                throw new InvalidInputException(source + ": its comment '" + key + " = " + value + "' is not a whole "
                        + "number; CmdStan writes one there");
            }
        }

        /** What is wrong when {@code found} rows come before the end of adaptation. */
        String mismatch(int found) {
            return "found " + found + " draws before '" + ADAPTATION_END + "' where its settings (" + settings
                    + ") give " + rows + " warm-up draws; is the file cut or joined from others?";
        }
    }

    /** A reader that knows the number of the line it returned last and of the header line. */
    private static final class LineCounter extends BufferedReader {
        int number;
        int headerLine;

        LineCounter(BufferedReader in) {
            super(in);
        }

        /** CmdStan's settings from the {@code # key = value} comments before the header, the first of each key. */
        final Map<String, String> settings = new HashMap<>();

        @Override
        public String readLine() throws IOException {
            String line = super.readLine();
            if (line != null) {
                number++;
                if (headerLine == 0 && !line.isBlank() && !line.startsWith("#")) {
                    headerLine = number;
                }
                java.util.regex.Matcher setting = SETTING.matcher(line);
                if (headerLine == 0 && setting.matches()) {
                    settings.putIfAbsent(setting.group(1), setting.group(2));
                }
            }
            return line;
        }

        String next() throws IOException {
            return readLine();
        }
    }
}
