package org.sparkmc.spark.io;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.GzipCodec;
import org.sparkmc.core.InvalidInputException;

/**
 * The one way sparkmc reads a text input, on the driver ({@link #reader}) and on the executors
 * ({@link CheckedTextInputFormat}) alike: compression follows the file's name as in Hadoop's input formats, and a
 * name that contradicts the content (gzip data not named {@code .gz}, a {@code .gz} file that is not gzip) is
 * refused; a compressed file that breaks off is named as such with the line reached; the text must be UTF-8
 * ({@link Utf8Lines}) and a byte-order mark at its start is dropped.
 */
public final class TextFiles {
    private TextFiles() {
    }

    /**
     * The codec the file's name selects (null: plain), after checking the name against the first bytes.
     *
     * @throws InvalidInputException if gzip data is not named {@code .gz}, or a {@code .gz} file is not gzip
     */
    public static CompressionCodec codec(Path path, FileSystem fs, Configuration conf) throws IOException {
        try (InputStream in = fs.open(path)) {
            return codec(path, conf, in.readNBytes(2));
        }
    }

    /**
     * {@link #codec(Path, FileSystem, Configuration)} for a file already open, given its first bytes {@code head}
     * (two, or fewer for a shorter file).
     */
    public static CompressionCodec codec(Path path, Configuration conf, byte[] head) {
        CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(path);
        boolean gzipData = head.length >= 2 && head[0] == (byte) 0x1f && head[1] == (byte) 0x8b;
        boolean gzipName = codec instanceof GzipCodec;
        if (gzipName && !gzipData) {
            throw new InvalidInputException(path + ": not a gzip file (its name ends in .gz but it does not start with"
                    + " gzip's bytes 1f 8b); compress it with gzip, or drop the .gz from its name if it is plain text");
        }
        if (gzipData && !gzipName) {
            throw new InvalidInputException(path + ": gzip data in a file whose name does not end in .gz; add .gz to"
                    + " its name (compression follows the name, as in Hadoop's input formats), or gunzip it");
        }
        return codec;
    }

    /** What the codec's files are called in messages: "gzip" for gzip, else its extension. */
    static String codecName(CompressionCodec codec) {
        return codec instanceof GzipCodec ? "gzip" : codec.getDefaultExtension().replaceFirst("^\\.", "");
    }

    /** The message for a compressed file whose data break off (or are damaged) after {@code lines} whole lines. */
    static InvalidInputException incomplete(Object file, CompressionCodec codec, long lines, IOException e) {
        return new InvalidInputException(file + ": not a complete " + codecName(codec) + " file (its data break off"
                + " after line " + lines + ": " + e.getMessage() + "); is it truncated? compress it again", e);
    }

    /**
     * The text of a file through Hadoop's FileSystem, as the executors read it: decompressed by its name (checked
     * against its content), strict UTF-8 with file, line and column in the error, a leading byte-order mark dropped.
     *
     * @throws java.io.FileNotFoundException if there is no such file
     * @throws InvalidInputException see {@link #codec}
     */
    public static Reader reader(Path path, Configuration conf) throws IOException {
        Decompressed in = decompressed(path, conf);
        return new LineCheckingReader(in.stream(), path, in.codec());
    }

    /** A file's bytes, decompressed by {@link #codec}, which names the codec (null: plain). */
    public record Decompressed(InputStream stream, CompressionCodec codec) {
    }

    /**
     * The bytes of a file, opened once (one request to an object store) and decompressed when its name says so
     * ({@link #codec}, checked against its first bytes). The file system's own failures to open or read it are
     * {@link StorageFailure}s (exit 1, a scheduler retries), so that an {@link IOException} of the stream is the
     * data's: a compressed file that breaks off or is damaged.
     *
     * @throws java.io.FileNotFoundException if there is no such file
     * @throws InvalidInputException see {@link #codec}
     */
    public static Decompressed decompressed(Path path, Configuration conf) throws IOException {
        InputStream in = new BufferedInputStream(StorageFailure.open(path.getFileSystem(conf), path), 1 << 16);
        try {
            in.mark(2);
            byte[] head = in.readNBytes(2);
            in.reset();
            CompressionCodec codec = codec(path, conf, head);
            return new Decompressed(codec == null ? in : codec.createInputStream(in), codec);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** Decodes a stream line by line, each line checked by {@link Utf8Lines}. */
    private static final class LineCheckingReader extends Reader {
        private final InputStream in;
        private final Path path;
        private final CompressionCodec codec;
        private final Utf8Lines lines;
        private byte[] line = new byte[256];
        private String pending = "";
        private int at;
        private long lineNo;
        private boolean ended;

        LineCheckingReader(InputStream in, Path path, CompressionCodec codec) {
            this.in = new BufferedInputStream(in, 1 << 16);
            this.path = path;
            this.codec = codec;
            this.lines = new Utf8Lines(path.toString());
        }

        @Override
        public int read(char[] buf, int off, int len) throws IOException {
            while (at == pending.length()) {
                if (ended) {
                    return -1;
                }
                nextLine();
            }
            int n = Math.min(len, pending.length() - at);
            pending.getChars(at, at + n, buf, off);
            at += n;
            return n;
        }

        /**
         * Reads the next line's bytes, with its end (\n, \r\n or \r, as {@link java.io.BufferedReader#readLine}
         * ends lines), into {@link #pending}.
         */
        private void nextLine() throws IOException {
            int n = 0;
            while (true) {
                int b = readByte();
                if (b < 0) {
                    ended = true;
                    break;
                }
                append(b, n++);
                if (b == '\n') {
                    break;
                }
                if (b == '\r') {
                    in.mark(1);
                    int next = readByte();
                    if (next == '\n') {
                        append(next, n++);
                    } else if (next >= 0) {
                        in.reset();
                    }
                    break;
                }
            }
            lineNo++;
            int from = lineNo == 1 ? Utf8Lines.bomLength(line, n) : 0;
            lines.check(line, from, n - from, lineNo);
            pending = new String(line, from, n - from, StandardCharsets.UTF_8);
            at = 0;
        }

        private void append(int b, int n) {
            if (n == line.length) {
                line = Arrays.copyOf(line, 2 * n);
            }
            line[n] = (byte) b;
        }

        /** The next byte, or -1 at the end; a compressed stream's failure is named as data that break off. */
        private int readByte() throws IOException {
            try {
                return in.read();
            } catch (IOException e) { // the data's (the file system's are StorageFailures)
                if (codec != null) {
                    throw incomplete(path, codec, lineNo, e);
                }
                throw e;
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
