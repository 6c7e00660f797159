package org.sparkmc.spark.smc;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.smc.ObservationCsv;
import org.sparkmc.core.smc.Observations;
import org.sparkmc.core.smc.TimeOrder;
import org.sparkmc.spark.cli.Require;
import org.sparkmc.spark.io.StorageFailure;
import org.sparkmc.spark.io.TextFiles;
import org.sparkmc.spark.io.UserPaths;

/**
 * Where the {@code smc} job's observations come from, one batch at a time, through Hadoop's FileSystem (file://,
 * hdfs://, s3a://):
 * <ul>
 *   <li>a CSV file: one batch;</li>
 *   <li>a directory of CSV batch files, processed in name order (names starting with '.' or '_' are ignored);</li>
 *   <li>with {@code follow}, a directory that a producer keeps adding batch files to: the feed polls it and hands
 *       each new file over as it appears, until a file named {@value #END_MARKER} appears (or no new file has come
 *       for the idle timeout). A producer must make each file appear complete (write a hidden name, then rename)
 *       and name files so they sort in time order (e.g. {@code batch-000042.csv}); a file that sorts before one
 *       already processed is an error, not silently skipped.</li>
 * </ul>
 * The feed holds one batch at a time, the last file name processed and a count: constant memory however long the
 * stream runs. Every batch must have the columns of the first, and its times (with a time column) must follow the
 * previous batch's. {@link #open} reads the first batch already (a single file's every row; when following, the
 * first file if one is there), so that its errors come before Spark starts; {@link #next} hands it over.
 */
public final class ObservationFeed {
    /** The file whose appearance ends a followed stream. */
    public static final String END_MARKER = "_END";
    private static final Logger LOG = LoggerFactory.getLogger(ObservationFeed.class);

    /** Following a directory: poll interval and how long to wait without a new file (0 = until the end marker). */
    public record Follow(boolean enabled, double pollSeconds, double idleTimeoutSeconds) {
        public static final Follow OFF = new Follow(false, 1, 0);

        public Follow {
            Require.positive(pollSeconds, "--poll-seconds");
            Require.atLeast(idleTimeoutSeconds, 0, "--idle-timeout");
        }
    }

    private final FileSystem fs;
    private final Path location;
    private final boolean directory;
    private final ObservationCsv.Options options;
    private final Follow follow;
    private final int dimension;
    private final TimeOrder timeOrder = new TimeOrder();
    private List<String> columns;
    private String lastName;
    private long processed;
    private boolean ended;
    private String current;
    /** The batch {@link #open} read ahead, until {@link #next} hands it over. */
    private Observations ahead;

    private ObservationFeed(FileSystem fs, Path location, boolean directory, ObservationCsv.Options options,
            Follow follow, int dimension) {
        this.fs = fs;
        this.location = location;
        this.directory = directory;
        this.options = options;
        this.follow = follow;
        this.dimension = dimension;
    }

    /**
     * Checks that the location exists (and is a directory when following) and reads the first batch: a file's rows, a
     * directory's first file, or when following the first file if there is one yet (without waiting).
     *
     * @param dimension the model's observation dimension: every batch must have this many observation columns
     * @throws InvalidInputException as {@link #next} does for the first batch
     */
    public static ObservationFeed open(String location, ObservationCsv.Options options, Follow follow, int dimension,
            Configuration conf) {
        if (location == null || location.isBlank()) {
            throw new InvalidInputException("--data PATH is required (or 'data' in the config file): an observation "
                    + "CSV file or a directory of batch files");
        }
        Path path = UserPaths.path("--data", location);
        try {
            FileSystem fs = path.getFileSystem(conf);
            FileStatus status = StorageFailure.statusIfAny(fs, path);
            if (status == null) {
                throw new InvalidInputException("observations '" + location + "' do not exist");
            }
            boolean dir = status.isDirectory();
            if (follow.enabled() && !dir) {
                throw new InvalidInputException("--follow needs a directory of batch files; '" + location
                        + "' is a file");
            }
            ObservationFeed feed = new ObservationFeed(fs, path, dir, options, follow, dimension);
            if (!follow.enabled()) {
                feed.ahead = feed.next();
            } else {
                Path first = feed.nextFile();
                feed.ahead = first == null ? null : feed.take(first);
            }
            return feed;
        } catch (IOException e) { // not ours to read: the file system's own failures are StorageFailures
            throw new InvalidInputException("observations '" + location + "' cannot be read: "
                    + StorageFailure.reason(e), e);
        }
    }

    /** Whether batches come from a directory that is being followed. */
    public boolean online() {
        return follow.enabled();
    }

    /** Whether the observations are one file (one batch). */
    public boolean singleFile() {
        return !directory;
    }

    /** The location read. */
    public String location() {
        return location.toString();
    }

    /** The observation column names (known after the first batch). */
    public List<String> columns() {
        return columns;
    }

    /** The file the last batch came from. */
    public String currentSource() {
        return current;
    }

    /**
     * The next batch, or null when there are no more. While following, waits for the producer.
     *
     * @throws InvalidInputException for a malformed batch (file and line), a batch whose columns differ from the
     *     first, or a batch file arriving out of name order
     */
    public Observations next() {
        if (ahead != null) {
            Observations first = ahead;
            ahead = null;
            return first;
        }
        if (ended) {
            return null;
        }
        if (!directory) {
            ended = true;
            return read(location);
        }
        long idleSince = System.nanoTime();
        while (true) {
            boolean endMarker = follow.enabled() && exists(new Path(location, END_MARKER));
            Path nextFile = nextFile();
            if (nextFile != null) {
                return take(nextFile);
            }
            if (!follow.enabled() || endMarker) {
                ended = true;
                if (processed == 0) {
                    throw new InvalidInputException("no batch files in '" + location + "' (names starting with '.' "
                            + "or '_' are ignored)");
                }
                return null;
            }
            if (follow.idleTimeoutSeconds() > 0 && (System.nanoTime() - idleSince) / 1e9 >= follow.idleTimeoutSeconds()) {
                if (processed == 0) { // a run of no step was committed as a result, with exit 0
                    throw new InvalidInputException("no batch file arrived in '" + location + "' within --idle-timeout "
                            + follow.idleTimeoutSeconds() + " s (names starting with '.' or '_' are ignored)");
                }
                LOG.warn("smc: no new batch in {} for {} s and no {} marker; ending the stream", location,
                        follow.idleTimeoutSeconds(), END_MARKER);
                ended = true;
                return null;
            }
            try {
                Thread.sleep((long) (follow.pollSeconds() * 1000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for observations in " + location, e);
            }
        }
    }

    /** The first batch file after {@code lastName} in name order, checking that none arrived out of order. */
    private Path nextFile() {
        FileStatus[] listing;
        try {
            listing = StorageFailure.list(fs, location);
        } catch (IOException e) { // gone, or not ours to list: the file system's own failures are StorageFailures
            throw new InvalidInputException("observations " + location + " cannot be listed: "
                    + StorageFailure.reason(e), e);
        }
        Path next = null;
        long notAfter = 0;
        String late = null;
        for (FileStatus s : listing) {
            String name = s.getPath().getName();
            if (s.isDirectory()) { // its files were skipped without a word, and their steps with them
                throw UserPaths.holdingADirectory("the observations directory", location, name, "batch files go "
                        + "directly in the directory given");
            }
            if (!s.isFile()) { // hidden names are not listed
                continue;
            }
            if (lastName != null && name.compareTo(lastName) <= 0) {
                notAfter++;
                if (!name.equals(lastName) && (late == null || name.compareTo(late) > 0)) {
                    late = name;
                }
            } else if (next == null || name.compareTo(next.getName()) < 0) {
                next = s.getPath();
            }
        }
        if (notAfter > processed) {
            throw new InvalidInputException("batch file '" + late + "' in " + location + " arrived after '" + lastName
                    + "' had been processed; batch files must arrive in name order");
        }
        return next;
    }

    /** Reads the batch file that comes next in name order. */
    private Observations take(Path file) {
        lastName = file.getName();
        processed++;
        return read(file);
    }

    private boolean exists(Path p) {
        try {
            return StorageFailure.statusIfAny(fs, p) != null;
        } catch (IOException e) { // not ours to read: the file system's own failures are StorageFailures
            throw new InvalidInputException("observations " + location + ": " + p.getName() + " cannot be read: "
                    + StorageFailure.reason(e), e);
        }
    }

    private Observations read(Path file) {
        current = file.toString();
        Observations o;
        try (Reader reader = TextFiles.reader(file, fs.getConf())) {
            o = ObservationCsv.read(reader, file.toString(), options, timeOrder);
        } catch (FileNotFoundException e) {
            throw new InvalidInputException("observation file '" + file + "' does not exist");
        } catch (IOException e) { // the data's, or a refused access (the storage's failures are StorageFailures)
            throw new InvalidInputException("cannot read observations " + file + ": " + e.getMessage(), e);
        }
        if (columns == null) {
            if (o.dimension() != dimension) {
                String time = o.dimension() == dimension + 1 ? timeLike(o) : null;
                throw new InvalidInputException(file + ": " + o.dimension() + " observation column(s) "
                        + o.columns() + ", the model expects " + dimension + (time == null
                            ? " (choose them with --columns)"
                            : "; '" + time + "' looks like a time index: pass --time-column " + time
                                + " (or choose the observation columns with --columns)"));
            }
            columns = new ArrayList<>(o.columns());
        } else if (!columns.equals(o.columns())) {
            throw new InvalidInputException(file + ": observation columns " + o.columns() + " differ from the first "
                    + "batch's " + columns);
        }
        return o;
    }

    /** Column names that say "time index" (compared ignoring case). */
    private static final Set<String> TIME_NAMES = Set.of("t", "time", "times", "year", "years", "date", "day", "week",
            "month", "quarter", "period", "step", "index", "idx");

    /**
     * The observation column that looks like a time index, for the hint when there is one column too many: the first
     * with a time-like name, else the first of evenly spaced increasing whole numbers (like years or 0, 1, 2, ...;
     * at least three rows, none missing); or null.
     */
    static String timeLike(Observations o) {
        for (String name : o.columns()) {
            if (TIME_NAMES.contains(name.trim().toLowerCase(Locale.ROOT))) {
                return name;
            }
        }
        double[][] values = o.values();
        if (values.length < 3) {
            return null;
        }
        for (int j = 0; j < o.dimension(); j++) {
            double step = values[1][j] - values[0][j];
            boolean even = step > 0 && step == Math.rint(step);
            for (int n = 0; n < values.length && even; n++) {
                double v = values[n][j];
                even = Double.isFinite(v) && v == Math.rint(v) && (n == 0 || v - values[n - 1][j] == step);
            }
            if (even) {
                return o.columns().get(j);
            }
        }
        return null;
    }
}
