package org.sparkmc.spark.consensus;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.spark.io.UnreadableFiles;
import org.sparkmc.spark.io.UserPaths;

/**
 * The consensus table's files checked on the driver through Hadoop's FileSystem, before Spark starts: a CSV file's
 * header ({@link CsvLines#header}: gzip data under another name, a column named twice, a header unlike the first
 * file's), a Parquet file's footer (not Parquet), a table without rows (CSV: no line after the headers; Parquet: the
 * footers' row counts), and the {@code --response} and {@code --features} columns: there, and for Parquet of a
 * numeric type. A directory is its files by name, hidden ones ({@code _…}, {@code .…}) left out as Spark leaves
 * them; one with subdirectories (a partitioned table, whose columns are also in directory names) gets its columns
 * checked on Spark's schema instead ({@link GlmTable#open}). The values are Spark's to check, row by row.
 */
final class TableCheck {
    /** What to try for a file that does not read as Parquet. */
    static final String PARQUET_HINT = "for a CSV table use --format csv";
    /** What to try for a file that does not read as CSV. */
    static final String CSV_HINT = "check the file (a .gz file must be whole gzip), or for a Parquet table use "
            + "--format parquet";

    private TableCheck() {
    }

    /**
     * Checks the table at {@code path} in {@code format} ("csv", "parquet").
     *
     * @throws InvalidInputException naming the file (and line) at fault
     */
    static void check(Configuration hadoop, Path path, String format, String response, List<String> features) {
        try {
            FileSystem fs = path.getFileSystem(hadoop);
            List<FileStatus> entries = entries(fs, path);
            List<FileStatus> named = fs.getFileStatus(path).isDirectory() ? entries : List.of();
            if (entries.isEmpty()) {
                throw noRows(path, named, "the directory holds no file (names starting with _ or . are hidden)");
            }
            if (format.equals("csv")) {
                csv(hadoop, path, entries, named, response, features);
            } else if (entries.stream().noneMatch(FileStatus::isDirectory)) {
                parquet(hadoop, path, entries, named, response, features);
            }
        } catch (IOException e) {
            throw new InvalidInputException("--data " + path + ": cannot be read: " + e.getMessage(), e);
        }
    }

    /** The path itself if it is a file; else its entries by name, hidden ones left out. */
    static List<FileStatus> entries(FileSystem fs, Path path) throws IOException {
        FileStatus status = fs.getFileStatus(path);
        if (!status.isDirectory()) {
            return List.of(status);
        }
        List<FileStatus> entries = new ArrayList<>(Arrays.asList(fs.listStatus(path, p -> !UserPaths.hidden(p))));
        entries.sort(Comparator.comparing(f -> f.getPath().getName()));
        return entries;
    }

    /** @param named the files to name when the table has no rows: a directory's, or none for a file */
    private static void csv(Configuration hadoop, Path path, List<FileStatus> entries, List<FileStatus> named,
            String response, List<String> features) {
        List<CsvLines.Header> headers = new ArrayList<>();
        for (FileStatus f : entries) {
            CsvLines.Header header;
            try {
                header = f.isFile() ? CsvLines.header(hadoop, f.getPath()) : null;
            } catch (IOException e) {
                throw UnreadableFiles.reading(f.getPath(), "CSV", CSV_HINT, e);
            }
            if (header != null) {
                String twice = header.namingAColumnTwice();
                if (twice != null) {
                    throw new InvalidInputException(twice);
                }
                headers.add(header);
            }
        }
        if (entries.stream().anyMatch(FileStatus::isDirectory)) {
            return;
        }
        for (CsvLines.Header h : headers) {
            CsvLines.Header first = headers.get(0);
            if (!Arrays.equals(h.fields(), first.fields())) {
                throw new InvalidInputException("the table " + path + ": " + h.where() + " names the columns "
                        + Arrays.toString(h.fields()) + ", but the first file's, " + first.where() + ", names "
                        + Arrays.toString(first.fields()) + "; Spark reads every file's fields by position under one "
                        + "header, so each file needs the same columns in the same order");
            }
        }
        if (headers.stream().noneMatch(CsvLines.Header::rows)) {
            throw noRows(path, named, !named.isEmpty() ? "none of its files has a line after its header"
                    : headers.isEmpty() ? "the file is empty" : "its only line is the header (line "
                    + headers.get(0).line() + ")");
        }
        CsvLines.Header first = headers.get(0);
        List<String> columns = new ArrayList<>();
        for (int i = 0; i < first.fields().length; i++) {
            String name = first.fields()[i];
            columns.add(name == null || name.isEmpty() ? "_c" + i : name); // Spark's name for a column without one
        }
        features(first.where(), columns, c -> null, c -> first.where(), response, features);
    }

    private static void parquet(Configuration hadoop, Path path, List<FileStatus> files, List<FileStatus> named,
            String response, List<String> features) {
        long rows = 0;
        Map<Path, MessageType> schemas = new LinkedHashMap<>();
        for (FileStatus f : files) {
            try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromStatus(f, hadoop))) {
                rows += reader.getRecordCount();
                schemas.put(f.getPath(), reader.getFooter().getFileMetaData().getSchema());
            } catch (IOException | RuntimeException e) {
                throw UnreadableFiles.parquetFooter(f.getPath(), PARQUET_HINT, e);
            }
        }
        if (rows == 0) {
            throw noRows(path, named, "its Parquet footer" + (files.size() == 1 ? " counts" : "s count") + " 0 rows");
        }
        List<String> chosen = features;
        for (Map.Entry<Path, MessageType> file : schemas.entrySet()) {
            Map<String, String> notNumeric = new LinkedHashMap<>();
            for (Type t : file.getValue().getFields()) {
                notNumeric.put(t.getName(), notNumeric(t));
            }
            String where = file.getKey().toString();
            chosen = features(where, new ArrayList<>(notNumeric.keySet()), notNumeric::get, c -> where, response,
                    chosen);
        }
    }

    /** "the table PATH has no rows: WHY (FILES…)"; an empty directory is named as such. */
    private static InvalidInputException noRows(Path path, List<FileStatus> named, String why) {
        String files = named.stream().limit(10).map(f -> f.getPath().getName()).reduce((a, b) -> a + ", " + b)
                .map(list -> " (" + list + (named.size() > 10 ? ", … " + named.size() + " files" : "") + ")")
                .orElse("");
        return new InvalidInputException("the table " + path + " has no rows: " + (why + files)
                + "; consensus samples from a table's rows");
    }

    /**
     * The feature columns of a table with {@code columns}: {@code features}, or when none are given every other
     * numeric column; the response and each feature checked to be among the columns and numeric.
     *
     * @param location     the table or file, named in messages
     * @param notNumeric   a column's type when it is not numeric (Parquet), else null (CSV: text read as numbers)
     * @param whereWithout what names a missing column's place (a header's file and line), or null for location
     * @throws InvalidInputException for a column missing or not numeric, or no feature, or a column named twice
     */
    static List<String> features(String location, List<String> columns, UnaryOperator<String> notNumeric,
            UnaryOperator<String> whereWithout, String response, List<String> features) {
        List<String> chosen = new ArrayList<>(features);
        if (chosen.isEmpty()) {
            for (String c : columns) {
                if (!c.equals(response) && notNumeric.apply(c) == null) {
                    chosen.add(c);
                }
            }
        }
        List<String> needed = new ArrayList<>();
        needed.add(response);
        needed.addAll(chosen);
        for (String c : needed) {
            if (!columns.contains(c)) {
                String where = whereWithout.apply(c);
                throw new InvalidInputException((where != null ? where : location) + ": no column '" + c + "' ("
                        + (c.equals(response) ? "--response" : "--features") + "); the columns are " + columns);
            }
            String type = notNumeric.apply(c);
            if (type != null) {
                throw new InvalidInputException(location + ": column '" + c + "' holds " + type + " values, "
                        + "expected numbers");
            }
        }
        if (chosen.isEmpty()) {
            throw new InvalidInputException(location + ": no feature columns besides the response '" + response
                    + "'; name them with --features");
        }
        if (chosen.contains(response) || chosen.stream().distinct().count() != chosen.size()) {
            throw new InvalidInputException("--features names a column twice or names the response: " + chosen);
        }
        return List.copyOf(chosen);
    }

    /** A Parquet column's type when Spark does not read it as a number (a string, a date, a list…); else null. */
    static String notNumeric(Type type) {
        LogicalTypeAnnotation a = type.getLogicalTypeAnnotation();
        if (!type.isPrimitive()) {
            return a == null ? "struct" : a.toString().toLowerCase(Locale.ROOT);
        }
        if (type.isRepetition(Type.Repetition.REPEATED)) {
            return "array";
        }
        PrimitiveType.PrimitiveTypeName p = type.asPrimitiveType().getPrimitiveTypeName();
        boolean decimal = a instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
        boolean number = switch (p) {
            case INT32, INT64 -> a == null || decimal || a instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation;
            case FLOAT, DOUBLE -> a == null;
            case BINARY, FIXED_LEN_BYTE_ARRAY -> decimal;
            default -> false; // BOOLEAN, INT96 (a timestamp)
        };
        return number ? null : (a != null ? a.toString() : p.name()).toLowerCase(Locale.ROOT);
    }
}
