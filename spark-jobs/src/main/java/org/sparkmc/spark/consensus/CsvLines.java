package org.sparkmc.spark.consensus;

import com.univocity.parsers.common.TextParsingException;
import com.univocity.parsers.csv.CsvParser;
import com.univocity.parsers.csv.CsvParserSettings;
import com.univocity.parsers.csv.UnescapedQuoteHandling;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.consensus.RowLikelihood;
import org.sparkmc.spark.io.StorageFailure;
import org.sparkmc.spark.io.TextFiles;
import org.sparkmc.spark.io.Utf8Lines;

/**
 * A CSV table's files read again on the driver, line by line through Hadoop's FileSystem, to name the line of a bad
 * value or of a header without a column: Spark's CSV reader, which reads the rows on the executors, gives no line
 * numbers. Before Spark starts, each file's header is read this way ({@link TableCheck}); after, only the error
 * path reads files, each up to its first bad line.
 *
 * <p>A line is read as Spark reads it with the options {@link GlmTable} gives (a header, white space around a field
 * dropped, the defaults otherwise): one record a line, lines ended by \n, \r\n or \r; blank lines (only white space)
 * skipped; the first line that is not blank is the file's header; fields split by the same parser Spark uses
 * (univocity) with Spark's settings (comma, double quote, backslash escape, no comments, white space around an
 * unquoted field dropped, so that {@code y, x1} names x1 as diagnose does); an empty field is a missing value;
 * a field is taken by its place, as Spark applies one schema to every file. Lines are numbered from 1 and every line
 * counts, blank ones and the header too, so the number is the one an editor shows.
 */
final class CsvLines {
    private static final Logger LOG = LoggerFactory.getLogger(CsvLines.class);
    /**
     * What a byte that is not UTF-8 is read as: a lone surrogate, which no UTF-8 text decodes to (Spark reads such a
     * byte as U+FFFD, which a file may also hold as a character of its own).
     */
    private static final char NOT_UTF8 = '\uDBFF';
    /** The most fields a line may have: Spark's default {@code maxColumns}. */
    private static final int MAX_COLUMNS = 20480;

    private CsvLines() {
    }

    /**
     * The error for the first line of {@code file} with a value that {@link GlmTable#checked} refuses or without a
     * field for a column, or null when it has none.
     *
     * @param file      a file as Spark names it ({@code _metadata.file_path}: a URI)
     * @param names     the response's and the features' columns
     * @param positions each one's place among a line's fields
     * @throws UncheckedIOException when the file cannot be read
     */
    static InvalidInputException firstBadLine(Configuration hadoop, String file, List<String> names, int[] positions,
            RowLikelihood likelihood) {
        CsvParser parser = new CsvParser(sparkDefaults());
        String shown = shown(file);
        try (BufferedReader lines = open(hadoop, path(file))) {
            long number = 0;
            int headerFields = -1;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                number++;
                if (line.trim().isEmpty()) {
                    continue;
                }
                String[] fields = parser.parseLine(line);
                if (headerFields < 0) {
                    headerFields = fields.length;
                    continue;
                }
                String where = shown + " line " + number;
                for (int k = 0; k < names.size(); k++) {
                    if (positions[k] >= fields.length) {
                        return new InvalidInputException(where + ", column '" + names.get(k) + "': no value (the line "
                                + "has " + fields.length + " fields, the header " + headerFields + ")");
                    }
                    String value = fields[positions[k]];
                    if (value != null && value.indexOf(NOT_UTF8) >= 0) { // which byte of the line: not told apart
                        return new InvalidInputException(where + ", column '" + names.get(k) + "': value '"
                                + value.replace(NOT_UTF8, '\uFFFD') + "' has a byte that is not UTF-8; "
                                + Utf8Lines.CONVERT);
                    }
                    try {
                        GlmTable.checked(value == null || value.isEmpty() ? null : value, k, names.get(k),
                                likelihood, () -> where);
                    } catch (InvalidInputException e) {
                        return e;
                    }
                }
                if (fields.length != headerFields) {
                    return new InvalidInputException(where + ": the line has " + fields.length + " fields, the header "
                            + headerFields + (fields.length > headerFields ? " (a comma inside a value needs quotes)"
                            : ""));
                }
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(shown + ": cannot be read again to find its bad line: " + e.getMessage(), e);
        }
    }

    /**
     * "FILE line N (the header)" for the first CSV file of {@code location} (the file itself, or a directory's data
     * files by name) whose header has no column {@code column}; null when none lacks it or the files cannot be read.
     */
    static String headerWithout(Configuration hadoop, String location, String column) {
        return firstHeader(hadoop, location, (where, fields) -> Arrays.asList(fields).contains(column) ? null : where,
                "name the one without '" + column + "'");
    }

    /** A CSV file's header: its first line that is not blank; {@code rows}: a line that is not blank follows. */
    record Header(Path file, long line, String[] fields, boolean rows) {
        /** "FILE line N (the header)". */
        String where() {
            return file + " line " + line + " (the header)";
        }

        /** "…: columns I and J are both named 'C'; …" if the header names a column twice (Spark: C1, C2), else null. */
        String namingAColumnTwice() {
            return CsvLines.namingAColumnTwice(where(), Arrays.asList(fields));
        }
    }

    /**
     * "WHERE: columns I and J are both named 'C'; …" if {@code names} hold a name twice, null if not. As Spark matches
     * column names (spark.sql.caseSensitive off), case does not tell two names apart.
     */
    static String namingAColumnTwice(String where, List<String> names) {
        for (int j = 0; j < names.size(); j++) {
            for (int i = 0; i < j; i++) {
                String a = names.get(i);
                String b = names.get(j);
                if (a != null && b != null && a.toLowerCase(Locale.ROOT).equals(b.toLowerCase(Locale.ROOT))) {
                    return where + ": columns " + (i + 1) + " and " + (j + 1) + (a.equals(b) ? " are both named '"
                            + b + "'" : " are named '" + a + "' and '" + b + "', which Spark takes for one name")
                            + "; each column needs its own name";
                }
            }
        }
        return null;
    }

    /**
     * The header of {@code file}, read as Spark reads it, and whether a row follows; null for a file with no line that
     * is not blank.
     *
     * @throws org.sparkmc.core.InvalidInputException if its name and its first bytes disagree about gzip, or the header
     *         does not parse or holds a byte that is not UTF-8
     * @throws IOException           the content's failure (data that break off, a damaged gzip stream)
     * @throws StorageFailure        the file system's
     */
    static Header header(Configuration hadoop, Path file) throws IOException {
        try (BufferedReader lines = open(hadoop, file)) {
            long number = 0;
            Header header = null;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                number++;
                if (line.trim().isEmpty()) {
                    continue;
                }
                if (header != null) {
                    return new Header(file, header.line(), header.fields(), true);
                }
                header = new Header(file, number, headerFields(file, number, line), false);
                refuseNotUtf8(file + " line " + number, line);
            }
            return header;
        }
    }

    /**
     * Refuses a header holding a byte that is not UTF-8 (a column name would otherwise go to the outputs as
     * "x\uFFFD2"), naming its column as {@link Utf8Lines} does. Only the header: a row's byte is Spark's to read, and
     * refused by {@link #firstBadLine} only in a column the model uses.
     *
     * @param where "FILE line N"
     */
    private static void refuseNotUtf8(String where, String header) {
        int at = header.indexOf(NOT_UTF8);
        if (at >= 0) {
            throw new InvalidInputException(where + " column " + (at + 1) + " (the header): a byte that is not UTF-8; "
                    + Utf8Lines.CONVERT);
        }
    }

    /** The fields of a header line; a line Spark's parser refuses (more than 20,480 fields) is bad input. */
    private static String[] headerFields(Path file, long number, String line) {
        try {
            return new CsvParser(sparkDefaults()).parseLine(line);
        } catch (TextParsingException e) {
            String why = e.getCause() instanceof ArrayIndexOutOfBoundsException ? "it has more than " + MAX_COLUMNS
                    + " fields, the most Spark's CSV reader takes"
                    : e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            throw new InvalidInputException(file + " line " + number + " (the header) does not parse as CSV: " + why,
                    e);
        }
    }

    /**
     * What {@code check} says of the first CSV file of {@code location} (the file itself, or a directory's data
     * files by name) for which it says anything, given "FILE line N (the header)" and the header's fields; null when
     * it says nothing of any, or the files cannot be read ({@code purpose} then goes into a warning).
     */
    private static String firstHeader(Configuration hadoop, String location, BiFunction<String, String[], String> check,
            String purpose) {
        try {
            Path path = new Path(location);
            FileSystem fs = path.getFileSystem(hadoop);
            for (FileStatus f : TableCheck.entries(fs, StorageFailure.status(fs, path))) {
                Header header = f.isFile() ? header(hadoop, f.getPath()) : null;
                String said = header == null ? null : check.apply(header.where(), header.fields());
                if (said != null) {
                    return said;
                }
            }
            return null;
        } catch (IOException | UncheckedIOException e) {
            // The refusal that asked still names the table and its columns; only the file and line are lost.
            LOG.warn("consensus: cannot read the CSV headers of {} again to {}", location, purpose, e);
            return null;
        }
    }

    /**
     * A file's lines, read as {@link TextFiles#decompressed} opens them: once, checked, decompressed by name; a byte
     * that is not UTF-8 read as {@link #NOT_UTF8}.
     */
    private static BufferedReader open(Configuration hadoop, Path path) throws IOException {
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE).replaceWith(String.valueOf(NOT_UTF8));
        return new BufferedReader(new InputStreamReader(TextFiles.decompressed(path, hadoop).stream(), utf8));
    }

    /**
     * A file as Spark names it ({@code _metadata.file_path}, a URI) as a message shows it: decoded, as Hadoop's Path
     * prints it ("file:/data/my table.csv", not "my%20table.csv").
     */
    static String shown(String file) {
        return path(file).toString();
    }

    /** Spark's {@code _metadata.file_path} is a URI; a plain path is taken as it is. */
    private static Path path(String file) {
        try {
            return new Path(URI.create(file));
        } catch (IllegalArgumentException e) {
            return new Path(file);
        }
    }

    /**
     * Spark's CSV parser settings for reading with {@link GlmTable}'s options ({@code CSVOptions.asParserSettings}):
     * the defaults but ignoreLeadingWhiteSpace and ignoreTrailingWhiteSpace, true.
     */
    private static CsvParserSettings sparkDefaults() {
        CsvParserSettings settings = new CsvParserSettings();
        settings.getFormat().setDelimiter(',');
        settings.getFormat().setQuote('"');
        settings.getFormat().setQuoteEscape('\\');
        settings.setCommentProcessingEnabled(false);
        settings.setIgnoreLeadingWhitespaces(true);
        settings.setIgnoreTrailingWhitespaces(true);
        settings.setReadInputOnSeparateThread(false);
        settings.setMaxColumns(MAX_COLUMNS);
        settings.setNullValue("");
        settings.setEmptyValue("");
        settings.setMaxCharsPerColumn(-1);
        settings.setUnescapedQuoteHandling(UnescapedQuoteHandling.STOP_AT_DELIMITER);
        settings.setLineSeparatorDetectionEnabled(false);
        return settings;
    }
}
