package org.sparkmc.spark.io;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSError;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The local file system under the scheme {@code faulty:}, with faults a test can switch on: a disk that fills
 * after a number of bytes (writes then fail with Hadoop's {@link FSError}, as the local file system reports ENOSPC),
 * an action run just before a rename (to let a competing writer in), reads that fail past a file's first bytes,
 * listings of a directory and lookups of a path that fail (a lost connection), and listings refused (no access);
 * it counts the files opened. Registered through
 * {@code META-INF/services}, so Spark's writers use it too for {@code faulty:} paths.
 */
public final class FaultyFileSystem extends RawLocalFileSystem {
    public static final String SCHEME = "faulty";
    private static final AtomicLong FREE_BYTES = new AtomicLong(Long.MAX_VALUE);
    private static volatile BiConsumer<Path, Path> beforeRename = (from, to) -> { };
    private static volatile Predicate<String> failingReads = name -> false;
    private static volatile Predicate<String> failingListings = name -> false;
    private static volatile Predicate<String> refusedListings = name -> false;
    private static volatile Predicate<String> failingLookups = name -> false;
    private static final AtomicInteger OPENS = new AtomicInteger();

    /** The disk holds only this many more bytes from now on. */
    public static void freeBytes(long bytes) {
        FREE_BYTES.set(bytes);
    }

    /** Runs {@code action} (from, to) before every rename. */
    public static void beforeRename(BiConsumer<Path, Path> action) {
        beforeRename = action;
    }

    /** Reads of a file whose name {@code failing} accepts fail, as a lost connection would, after its first bytes. */
    public static void failReads(Predicate<String> failing) {
        failingReads = failing;
    }

    /** Listings of a directory whose name {@code failing} accepts fail, as a lost connection would. */
    public static void failListings(Predicate<String> failing) {
        failingListings = failing;
    }

    /** Listings of a directory whose name {@code refused} accepts are refused, as a directory not ours to read. */
    public static void refuseListings(Predicate<String> refused) {
        refusedListings = refused;
    }

    /** Lookups (status, exists) of a path whose name {@code failing} accepts fail, as a lost connection would. */
    public static void failLookups(Predicate<String> failing) {
        failingLookups = failing;
    }

    /** How many times a file was opened since the last {@link #reset}. */
    public static int opens() {
        return OPENS.get();
    }

    /** Back to a healthy disk. */
    public static void reset() {
        freeBytes(Long.MAX_VALUE);
        beforeRename((from, to) -> { });
        failReads(name -> false);
        failListings(name -> false);
        refuseListings(name -> false);
        failLookups(name -> false);
        OPENS.set(0);
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        OPENS.incrementAndGet();
        FSDataInputStream real = super.open(f, bufferSize);
        if (!failingReads.test(f.getName())) {
            return real;
        }
        return new FSDataInputStream(new FSInputStream() {
            @Override
            public int read() throws IOException {
                return real.getPos() < 2 ? real.read() : fail();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return real.getPos() < 2 ? real.read(b, off, (int) Math.min(len, 2 - real.getPos())) : fail();
            }

            private int fail() throws IOException {
                throw new IOException("Connection reset (FaultyFileSystem)");
            }

            @Override
            public void seek(long pos) throws IOException {
                real.seek(pos);
            }

            @Override
            public long getPos() throws IOException {
                return real.getPos();
            }

            @Override
            public boolean seekToNewSource(long targetPos) {
                return false;
            }

            @Override
            public void close() throws IOException {
                real.close();
            }
        });
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
        if (failingListings.test(f.getName())) {
            throw new IOException("Connection reset (FaultyFileSystem)");
        }
        if (refusedListings.test(f.getName())) {
            // As HDFS' refusals do, the message goes on with the server's stack trace.
            throw new java.nio.file.AccessDeniedException(f.toString(), null, "Permission denied (FaultyFileSystem)\n"
                    + "\tat org.apache.hadoop.hdfs.server.namenode.FSPermissionChecker.check("
                    + "FSPermissionChecker.java:1)");
        }
        return super.listStatus(f);
    }

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
        if (failingLookups.test(f.getName())) {
            throw new IOException("Connection reset (FaultyFileSystem)");
        }
        return super.getFileStatus(f);
    }

    @Override
    public boolean exists(Path f) throws IOException {
        if (failingLookups.test(f.getName())) {
            throw new IOException("Connection reset (FaultyFileSystem)");
        }
        return super.exists(f);
    }

    /** A {@code faulty:} URI for a local path. */
    public static String uri(java.nio.file.Path local) {
        return SCHEME + "://" + local.toAbsolutePath();
    }

    @Override
    public String getScheme() {
        return SCHEME;
    }

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    @Override
    public void initialize(URI uri, Configuration conf) throws IOException {
        super.initialize(uri, conf);
        setConf(conf);
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        beforeRename.accept(src, dst);
        return super.rename(src, dst);
    }

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
            short replication, long blockSize, Progressable progress) throws IOException {
        return limited(super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress));
    }

    @Override
    public FSDataOutputStream create(Path f, boolean overwrite, int bufferSize, short replication, long blockSize,
            Progressable progress) throws IOException {
        return limited(super.create(f, overwrite, bufferSize, replication, blockSize, progress));
    }

    @Override
    public FSDataOutputStream createNonRecursive(Path f, FsPermission permission, java.util.EnumSet<
            org.apache.hadoop.fs.CreateFlag> flags, int bufferSize, short replication, long blockSize,
            Progressable progress) throws IOException {
        return limited(super.createNonRecursive(f, permission, flags, bufferSize, replication, blockSize, progress));
    }

    private FSDataOutputStream limited(FSDataOutputStream real) throws IOException {
        OutputStream counting = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                take(1);
                real.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                take(len);
                real.write(b, off, len);
            }

            @Override
            public void flush() throws IOException {
                real.flush();
            }

            @Override
            public void close() throws IOException {
                real.close();
            }
        };
        return new FSDataOutputStream(counting, null);
    }

    /** What the local file system throws on ENOSPC (FSError's constructor is Hadoop's own: reached by reflection). */
    private static FSError diskFull() {
        try {
            var make = FSError.class.getDeclaredConstructor(Throwable.class);
            make.setAccessible(true);
            return make.newInstance(new IOException("No space left on device"));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void take(long bytes) {
        if (FREE_BYTES.addAndGet(-bytes) < 0) {
            FREE_BYTES.set(0);
            throw diskFull();
        }
    }
}
