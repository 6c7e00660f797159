package org.sparkmc.spark.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkThrowable;
import org.sparkmc.core.InvalidInputException;

/**
 * Spark's failure to read an input file (error condition {@code FAILED_READ_FILE} and its sub-conditions, raised on
 * the driver while a schema is inferred, or in a task) as bad input that names the file: a truncated or corrupt file,
 * or one in another format than the reader's.
 */
public final class UnreadableFiles {
    private static final String FOOTER = "its footer cannot be read (not Parquet, or truncated)";

    private UnreadableFiles() {
    }

    /**
     * Whether {@code file} starts with Parquet's magic number (PAR1, or PARE for a file whose footer is encrypted), to
     * name a Parquet file read as something else.
     */
    public static boolean startsLikeParquet(FileSystem fs, Path file) throws IOException {
        try (var in = StorageFailure.open(fs, file)) {
            return isMagic(in.readNBytes(4));
        }
    }

    /**
     * Why {@code file} cannot be Parquet, from its first and last 4 bytes (the magic number a Parquet file begins and
     * ends with), or null if it may be: "it does not begin with Parquet's bytes PAR1", or "it is cut short: …".
     */
    public static String notParquet(FileSystem fs, FileStatus file) throws IOException {
        try (var in = StorageFailure.open(fs, file.getPath())) {
            if (!isMagic(in.readNBytes(4))) {
                return "it does not begin with Parquet's bytes PAR1";
            }
            long length = file.getLen();
            if (length < 12) {
                return "it is cut short (" + length + " bytes; a Parquet file ends with a footer and PAR1)";
            }
            in.seek(length - 4);
            return isMagic(in.readNBytes(4)) ? null
                    : "it is cut short: it does not end with Parquet's bytes PAR1 (a copy that did not finish?)";
        }
    }

    /** Parquet's magic number: PAR1, or PARE for a file whose footer is encrypted. */
    private static boolean isMagic(byte[] four) {
        String s = new String(four, StandardCharsets.US_ASCII);
        return s.equals("PAR1") || s.equals("PARE");
    }

    /**
     * The bad-input error for a Parquet file whose footer did not read on the driver (before Spark starts), in the
     * words of {@link #of}: "FILE is not readable Parquet: its footer cannot be read (…); HINT".
     */
    public static InvalidInputException parquetFooter(Path file, String hint, Exception failure) {
        return new InvalidInputException(file + " is not readable Parquet: " + FOOTER + "; " + hint, failure);
    }

    /**
     * The bad-input error for a file that failed to read on the driver (before Spark starts), in the words of
     * {@link #of}: "FILE is not readable FORMAT: reading it failed (EXCEPTION: message); HINT".
     */
    public static InvalidInputException reading(Path file, String format, String hint, Exception failure) {
        return new InvalidInputException(file + " is not readable " + format + ": reading it failed ("
                + cause(innermost(failure), null, file.toString()) + "); " + hint, failure);
    }

    /**
     * The bad-input error for {@code failure} if Spark failed to read a file anywhere in its causes: "FILE is not
     * readable FORMAT: why; HINT". Null for any other failure.
     *
     * @param format what the reader expected ("Parquet", "CSV")
     * @param hint   what the user may do instead (another --format)
     */
    public static InvalidInputException of(Throwable failure, String format, String hint) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SparkThrowable st && st.getCondition() != null
                    && st.getCondition().startsWith("FAILED_READ_FILE")) {
                String path = st.getMessageParameters().get("path");
                String file = path == null ? "a file of the input" : new Path(path).toString();
                String why = st.getCondition().endsWith("CANNOT_READ_FILE_FOOTER") ? FOOTER
                        : "reading it failed (" + cause(innermost(t), path, file) + ")";
                return new InvalidInputException(file + " is not readable " + format + ": " + why + "; " + hint,
                        failure);
            }
        }
        return null;
    }

    /**
     * An exception's class and the first line of its message (the file's path, named already, left out), at most
     * 160 characters, for a one-line error.
     */
    private static String cause(Throwable t, String path, String file) {
        String message = t.getMessage() == null ? "" : t.getMessage().lines().findFirst().orElse("");
        if (path != null) {
            message = message.replace(path, "it").replace(file, "it");
        }
        message = message.length() > 160 ? message.substring(0, 157) + "..." : message;
        return t.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
    }

    private static Throwable innermost(Throwable t) {
        Throwable inner = t;
        while (inner.getCause() != null && inner.getCause() != inner) {
            inner = inner.getCause();
        }
        return inner;
    }
}
