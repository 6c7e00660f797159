package org.sparkmc.spark.io;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * The file system's failure to open or read a file (a lost connection, a throttled request): the storage's trouble,
 * not the file's, so the job fails with exit 1 for a scheduler to retry, never as bad input. A stream opened here
 * throws this, unchecked, for every failure of the file system's own stream, so that what decodes the bytes (gzip,
 * a CSV parser, Parquet's footer reader) passes it through untouched and any {@link IOException} left is the
 * content's: data that break off, a damaged gzip stream, a footer that does not decode.
 */
public final class StorageFailure extends UncheckedIOException {
    /** @param failed what the file system failed to do, e.g. "read it" */
    private StorageFailure(Path file, String failed, IOException cause) {
        super(file + ": the file system failed to " + failed + ": " + reason(cause), cause);
    }

    private StorageFailure(Path file, IOException cause) {
        this(file, "read it", cause);
    }

    /**
     * What went wrong, in one line: the message's first line (a remote exception's, HDFS' refusals among them, carries
     * the server's stack trace), or the exception's class when it has none.
     */
    public static String reason(IOException cause) {
        String message = cause.getMessage();
        String first = message == null || message.isBlank() ? cause.getClass().getSimpleName()
                : message.strip().lines().findFirst().orElse("");
        return cause instanceof org.apache.hadoop.fs.ChecksumException ? first + " (the file does not match the "
                + "hidden .NAME.crc file Hadoop wrote beside it: a file edited since keeps a stale one, so delete the "
                + ".crc file; otherwise the copy is corrupt)" : first;
    }

    /**
     * Whether {@code e} is the input's and not the storage's: a file that is not there, may not be read, or whose
     * bytes fail their checksum (a corrupt copy on every replica, or a stale local {@code .crc}).
     */
    private static boolean theInputs(IOException e) {
        return e instanceof FileNotFoundException || e instanceof org.apache.hadoop.fs.ChecksumException
                || refused(e);
    }

    /**
     * {@code file} opened through {@code fs}; its open and its reads fail with {@link StorageFailure} only, but for a
     * file that is not there, may not be read or fails its checksum: those are the input's, and callers name them.
     *
     * @throws FileNotFoundException if there is no such file
     * @throws IOException if reading it is not allowed (HDFS' AccessControlException, S3A's AccessDeniedException)
     */
    public static FSDataInputStream open(FileSystem fs, Path file) throws IOException {
        return new FSDataInputStream(new Reads(file, guarded(file, "read it", () -> fs.open(file))));
    }

    /** {@code path}'s status through {@code fs}; fails as {@link #open} does. */
    public static FileStatus status(FileSystem fs, Path path) throws IOException {
        return guarded(path, "look it up", () -> fs.getFileStatus(path));
    }

    /** {@code path}'s status, or null when there is no such path; fails as {@link #open} does otherwise. */
    public static FileStatus statusIfAny(FileSystem fs, Path path) throws IOException {
        try {
            return status(fs, path);
        } catch (FileNotFoundException e) {
            return null;
        }
    }

    /**
     * What a user's location names: what it matches when it is a glob pattern ({@link UserPaths#isPattern}, hidden
     * names left out as by {@link #glob}), else the path's own status; none when nothing is there. A plain path is
     * looked up, not globbed: Hadoop's globber cannot walk a directory named with a ':'.
     */
    public static FileStatus[] named(FileSystem fs, Path path, String location) throws IOException {
        FileStatus[] found;
        if (UserPaths.isPattern(location)) {
            found = glob(fs, path);
        } else {
            FileStatus one = statusIfAny(fs, path);
            found = one == null ? null : new FileStatus[] {one};
        }
        return found == null ? new FileStatus[0] : found;
    }

    /**
     * What the glob pattern {@code pattern} matches, hidden names ({@link UserPaths#hidden}) left out as {@link #list}
     * leaves them out (null or none when nothing); fails as {@link #open} does.
     */
    public static FileStatus[] glob(FileSystem fs, Path pattern) throws IOException {
        return guarded(pattern, "list what matches it", () -> fs.globStatus(pattern, p -> !UserPaths.hidden(p)));
    }

    /** {@code dir}'s entries, hidden ones ({@link UserPaths#hidden}) left out, unordered; fails as {@link #open}. */
    public static FileStatus[] list(FileSystem fs, Path dir) throws IOException {
        return guarded(dir, "list it", () -> fs.listStatus(dir, p -> !UserPaths.hidden(p)));
    }

    /** A call to the file system. */
    private interface FileSystemCall<T> {
        T call() throws IOException;
    }

    /** {@code call}'s result; its failures are {@link StorageFailure}s ("failed to FAILED"), but for the input's. */
    private static <T> T guarded(Path path, String failed, FileSystemCall<T> call) throws IOException {
        try {
            return call.call();
        } catch (IOException e) {
            if (theInputs(e)) {
                throw e;
            }
            throw new StorageFailure(path, failed, e);
        }
    }

    /** Whether {@code e} is the file system's refusal of access rather than a failure of its own. */
    private static boolean refused(IOException e) {
        return e instanceof java.nio.file.AccessDeniedException
                || e instanceof org.apache.hadoop.security.AccessControlException
                || e.getClass().getSimpleName().equals("AccessDeniedException"); // S3A's, when on the class path
    }

    /** The Parquet file {@code status} names, read through {@link #open}. */
    public static InputFile parquetFile(FileStatus status, Configuration conf) {
        return new InputFile() {
            @Override
            public long getLength() {
                return status.getLen();
            }

            @Override
            public SeekableInputStream newStream() throws IOException {
                Path file = status.getPath();
                return HadoopStreams.wrap(open(file.getFileSystem(conf), file));
            }
        };
    }

    /** A file system's stream whose failures are {@link StorageFailure}s (the input's own pass as they are). */
    private static final class Reads extends FSInputStream {
        private final Path file;
        private final FSDataInputStream in;

        Reads(Path file, FSDataInputStream in) {
            this.file = file;
            this.in = in;
        }

        /** {@code e} if it is the input's (or a seek past the end: the file is shorter than expected); else thrown. */
        private IOException failure(IOException e) {
            if (theInputs(e) || e instanceof java.io.EOFException) {
                return e;
            }
            throw new StorageFailure(file, e);
        }

        @Override
        public int read() throws IOException {
            try {
                return in.read();
            } catch (IOException e) {
                throw failure(e);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return in.read(b, off, len);
            } catch (IOException e) {
                throw failure(e);
            }
        }

        @Override
        public void seek(long pos) throws IOException {
            try {
                in.seek(pos);
            } catch (IOException e) {
                throw failure(e);
            }
        }

        @Override
        public long getPos() throws IOException {
            return in.getPos();
        }

        @Override
        public boolean seekToNewSource(long targetPos) {
            return false;
        }

        @Override
        public int available() throws IOException {
            try {
                return in.available();
            } catch (IOException e) {
                throw failure(e);
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
