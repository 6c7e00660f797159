package org.sparkmc.spark.consensus;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.spark.io.StorageFailure;
import org.sparkmc.spark.io.UnreadableFiles;
import org.sparkmc.spark.io.UserPaths;

/**
 * The consensus table's files checked on the driver through Hadoop's FileSystem, before Spark starts: a CSV file's
 * header ({@link CsvLines#header}: gzip data under another name, a column named twice, a header unlike the first
 * file's), a Parquet file's footer (not Parquet), a table without rows (CSV: no line after the headers; Parquet: the
 * footers' row counts), and the {@code --response} and {@code --features} columns: there, and for Parquet of a
 * numeric type. A directory is its files by name, hidden ones ({@code _…}, {@code .…}) left out as Spark leaves
 * them; one of partition directories (a partitioned table, whose columns are also in the directories' names,
 * {@code column=value}) gets its columns checked on Spark's schema instead ({@link GlmTable#open}), and any other
 * subdirectory, which Spark would pass over, is refused. The values are Spark's to check, row by row.
 *
 * <p>Only a directory's first {@value #CHECKED_FILES} files by name are read here, {@value #THREADS} at a time (an
 * object store answers each request in 50–100 ms): Spark checks the rest as it reads them ({@link GlmTable}: a
 * header unlike the schema, a file that is not Parquet). A failure of the file system itself is no bad input
 * ({@link StorageFailure}, exit 1); a file's content that does not decode is.
 */
final class TableCheck {
    private static final Logger LOG = LoggerFactory.getLogger(TableCheck.class);
    /** How many of a directory's files, the first by name, are checked before Spark starts. */
    static final int CHECKED_FILES = 256;
    /** How many files are read at once. */
    private static final int THREADS = 16;
    /** What to try for a file that does not read as Parquet. */
    static final String PARQUET_HINT = "for a CSV table use --format csv";
    /** What to try for a Parquet file read as CSV. */
    private static final String PARQUET_TABLE_HINT = "for a Parquet table use --format parquet";
    /** What to try for a file that does not read as CSV. */
    static final String CSV_HINT = "check the file (a .gz file must be whole gzip), or " + PARQUET_TABLE_HINT;

    private TableCheck() {
    }

    /**
     * Checks the table at {@code path} in {@code format} ("csv", "parquet"); a Parquet table whose footers count
     * fewer rows than {@code shards} is refused too.
     *
     * @throws InvalidInputException naming the file (and line) at fault
     */
    static void check(Configuration hadoop, Path path, String format, String response, List<String> features,
            int shards) {
        try {
            FileSystem fs = path.getFileSystem(hadoop);
            FileStatus status = StorageFailure.status(fs, path);
            List<FileStatus> entries = entries(fs, status);
            List<FileStatus> named = status.isDirectory() ? entries : List.of();
            if (entries.isEmpty()) {
                throw noRows(path, named, "the directory holds no file (names starting with _ or . are hidden)");
            }
            refuseSubdirectoriesSparkWouldNotRead(path, entries);
            List<FileStatus> checked = entries.subList(0, Math.min(entries.size(), CHECKED_FILES));
            if (checked.size() < entries.size()) {
                LOG.info("consensus: the first {} of the {} files of {} are checked before Spark starts; Spark "
                        + "checks the others as it reads them", checked.size(), entries.size(), path);
            }
            if (format.equals("csv")) {
                csv(hadoop, path, entries, checked, named, response, features);
            } else if (entries.stream().noneMatch(FileStatus::isDirectory)) {
                parquet(hadoop, path, entries, checked, named, response, features, shards);
            }
        } catch (IOException e) { // not there, or not ours to read: the file system's failures are StorageFailures
            throw new InvalidInputException("--data " + path + ": cannot be read: " + StorageFailure.reason(e), e);
        }
    }

    /**
     * Refuses a directory that holds a subdirectory Spark would pass over without a word (its files were left out of
     * the rows), or files beside partition directories: a table's files go directly in it, or all in partition
     * directories named {@code column=value}.
     */
    private static void refuseSubdirectoriesSparkWouldNotRead(Path path, List<FileStatus> entries) {
        boolean files = false;
        String partition = null;
        for (FileStatus f : entries) {
            String name = f.getPath().getName();
            if (!f.isDirectory()) {
                files = true;
            } else if (name.indexOf('=') > 0) {
                partition = name;
            } else {
                throw UserPaths.holdingADirectory("the table", path, name, name.endsWith(".parquet")
                        || name.endsWith(".csv") ? "is that the table? give --data " + new Path(path, name)
                        + " (generate-glm writes its table there)" : "a table's files go directly in the "
                        + "directory given, or in partition directories named column=value");
            }
        }
        if (files && partition != null) {
            throw new InvalidInputException("the table " + path + " holds both files and the partition directory '"
                    + partition + "'; put every file in a partition directory, or none");
        }
    }

    /** The path itself if it is a file; else its entries by name, hidden ones left out. */
    static List<FileStatus> entries(FileSystem fs, FileStatus status) throws IOException {
        if (!status.isDirectory()) {
            return List.of(status);
        }
        List<FileStatus> entries = new ArrayList<>(Arrays.asList(StorageFailure.list(fs, status.getPath())));
        entries.sort(Comparator.comparing(f -> f.getPath().getName()));
        return entries;
    }

    /**
     * @param checked the first of {@code entries}, whose headers are read
     * @param named   the files to name when the table has no rows: a directory's, or none for a file
     */
    private static void csv(Configuration hadoop, Path path, List<FileStatus> entries, List<FileStatus> checked,
            List<FileStatus> named, String response, List<String> features) {
        List<CsvLines.Header> headers = new ArrayList<>();
        for (CsvLines.Header header : readAll(checked, f -> f.isFile() ? csvHeader(hadoop, f.getPath()) : null)) {
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
            if (checked.size() < entries.size()) {
                return; // a file not read may hold rows: Spark counts them
            }
            throw noRows(path, named, !named.isEmpty() ? "none of its files has a line after its header"
                    : headers.isEmpty() ? "the file is empty" : "its only line is the header (line "
                    + headers.get(0).line() + ")");
        }
        CsvLines.Header first = headers.get(0);
        String[] names = first.fields();
        for (int i = 0; i < names.length; i++) {
            if (names[i] == null || names[i].isBlank()) { // Spark names it _cI, then finds the header unlike that
                throw new InvalidInputException(first.where() + ": column " + (i + 1) + " has no name"
                        + (i == names.length - 1 ? " (does the header end in a comma?)" : i == 0 ? " (an index "
                        + "written without one, as pandas' to_csv does? write it with index=False)" : "")
                        + "; each column needs a name");
            }
        }
        features(first.where(), Arrays.asList(names), c -> null, c -> first.where(), response, features,
                "--features");
    }

    /** A CSV file's header ({@link CsvLines#header}); content that does not decode is bad input naming the file. */
    private static CsvLines.Header csvHeader(Configuration hadoop, Path file) {
        try {
            return CsvLines.header(hadoop, file);
        } catch (IOException e) { // the file system's own failures are StorageFailures, not IOExceptions
            throw UnreadableFiles.reading(file, "CSV", CSV_HINT, e);
        } catch (InvalidInputException e) { // bytes that are not UTF-8: Parquet's, say, under --format csv
            if (startsLikeParquet(hadoop, file)) {
                throw new InvalidInputException(file + " is a Parquet file (it starts with Parquet's magic number), "
                        + "not CSV; " + PARQUET_TABLE_HINT, e);
            }
            throw e;
        }
    }

    /** Whether {@code file} starts like Parquet ({@link UnreadableFiles#startsLikeParquet}); false if unreadable. */
    private static boolean startsLikeParquet(Configuration hadoop, Path file) {
        try {
            return UnreadableFiles.startsLikeParquet(file.getFileSystem(hadoop), file);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** A Parquet file's footer: its row count and schema. */
    private record Footer(long rows, MessageType schema) {
    }

    /** @see #csv */
    private static void parquet(Configuration hadoop, Path path, List<FileStatus> files, List<FileStatus> checked,
            List<FileStatus> named, String response, List<String> features, int shards) {
        List<Footer> footers = readAll(checked, f -> footer(hadoop, f));
        long rows = footers.stream().mapToLong(Footer::rows).sum();
        if (checked.size() == files.size() && rows == 0) {
            throw noRows(path, named, "its Parquet footer" + (files.size() == 1 ? " counts" : "s count") + " 0 rows");
        }
        if (checked.size() == files.size() && rows < shards) {
            throw new InvalidInputException("the table " + path + " has " + rows + " rows (its Parquet footer"
                    + (files.size() == 1 ? "" : "s") + "), fewer than --shards " + shards + ": every shard needs "
                    + "rows; give at most " + rows + " shards");
        }
        for (int i = 0; i < footers.size(); i++) {
            List<String> names = footers.get(i).schema().getFields().stream().map(Type::getName).toList();
            String twice = CsvLines.namingAColumnTwice(checked.get(i).getPath().toString(), names);
            if (twice != null) {
                throw new InvalidInputException(twice);
            }
        }
        String firstFile = checked.get(0).getPath().toString();
        List<String> chosen = features;
        for (int i = 0; i < footers.size(); i++) {
            Map<String, String> notNumeric = new LinkedHashMap<>();
            for (Type t : footers.get(i).schema().getFields()) {
                notNumeric.put(t.getName(), notNumeric(t));
            }
            String where = checked.get(i).getPath().toString();
            chosen = features(where, new ArrayList<>(notNumeric.keySet()), notNumeric::get, c -> where, response,
                    chosen, features.isEmpty() ? "a numeric column of the first file, " + firstFile : "--features");
        }
    }

    /** The footer of the Parquet file {@code f}; one that does not read or decode is bad input naming the file. */
    private static Footer footer(Configuration hadoop, FileStatus f) {
        try (ParquetFileReader reader = ParquetFileReader.open(StorageFailure.parquetFile(f, hadoop))) {
            return new Footer(reader.getRecordCount(), reader.getFooter().getFileMetaData().getSchema());
        } catch (StorageFailure e) {
            throw e;
        } catch (IOException | RuntimeException e) { // not Parquet, cut short, a footer that does not decode
            throw UnreadableFiles.parquetFooter(f.getPath(), PARQUET_HINT, e);
        }
    }

    /**
     * {@code read} of each file, in the files' order, {@value #THREADS} files at a time on daemon threads; the first
     * failure in the files' order is thrown, the reads still running are interrupted.
     */
    private static <T> List<T> readAll(List<FileStatus> files, Function<FileStatus, T> read) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(THREADS, files.size()), r -> {
            Thread t = new Thread(r, "sparkmc-table-check");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<T>> reads = new ArrayList<>();
            for (FileStatus f : files) {
                reads.add(pool.submit(() -> read.apply(f)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> r : reads) {
                results.add(r.get());
            }
            return results;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new InterruptedIOException("interrupted reading the table's files"));
        } finally {
            pool.shutdownNow();
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
     * @param featuresFrom where {@code features} come from, named with a missing one: "--features", or the file
     *                     whose numeric columns they are
     * @throws InvalidInputException for a column missing or not numeric, or no feature, or a column named twice
     */
    static List<String> features(String location, List<String> columns, UnaryOperator<String> notNumeric,
            UnaryOperator<String> whereWithout, String response, List<String> features, String featuresFrom) {
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
                        + (c.equals(response) ? "--response" : featuresFrom) + "); the columns are " + columns);
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
