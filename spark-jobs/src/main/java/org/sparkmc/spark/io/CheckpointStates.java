package org.sparkmc.spark.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.sparkmc.core.InvalidInputException;

/**
 * The driver-state files of a job's checkpoint directory (any Hadoop file system): {@code state-<n>.json}, a JSON
 * object with a {@code fingerprint} of the settings that made it, followed by a last line holding the SHA-256 of
 * the JSON. A state is written under a temporary name and renamed into place, then older states are deleted, so
 * the directory always holds one complete state; {@link #loadNewest} verifies the checksum and the fingerprint and
 * reports a corrupt or foreign state as bad input (exit 2), never using it.
 *
 * <p>Every write first checks that this run still holds the directory's lease ({@link CheckpointLease#checkHeld}).
 *
 * <p>Jobs keep their bulk data (draws, particles) in files beside the state, written before the state that
 * refers to them; the state records {@link #digest}s of that data, which the job checks when it reads it back.
 */
public final class CheckpointStates {
    /** JSON for state files: non-finite doubles are written as strings and read back. */
    public static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
    private static final String CHECKSUM = "\n#sha256:";
    /** The names of the states this class writes, and the only files of the directory's top level it deletes. */
    private static final String STATE_NAME = "state-\\d{5,}\\.json";
    /** The file that marks a directory as a sparkmc checkpoint, written when a run first claims it. */
    static final String MARKER = "_sparkmc-checkpoint";
    /** Every top-level name a checkpoint of an earlier sparkmc (before the marker) can hold. */
    private static final String EARLIER_CHECKPOINT =
            "state-\\d{5,}\\.json|rounds|particles|rows|samples|rdd|topics-\\d+\\.parquet|\\..*\\.(tmp|crc)";
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CheckpointStates.class);

    private final FileSystem fs;
    private final Path dir;

    public CheckpointStates(String location, Configuration conf) {
        try {
            Place at = Place.of(location, conf);
            this.fs = at.fs();
            this.dir = at.dir();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open checkpoint directory " + location, e);
        }
        claim(location, conf); // the command line claims it before Spark starts; a job used directly, here
    }

    /**
     * Claims {@code location} as a job's checkpoint directory before the run starts: a new or empty directory is
     * created and marked ({@value #MARKER}); one already marked is sparkmc's and is taken as it is. A directory
     * holding anything else is refused, so a checkpoint never deletes or overwrites files it did not write; so is
     * one where nothing can be written (found now, not after the first round).
     *
     * @return what the claim wrote, for {@link #releaseUnused}
     * @throws InvalidInputException if the location is a file, a foreign non-empty directory, or not writable
     */
    public static Claimed claim(String location, Configuration conf) {
        return claim(location, conf, true);
    }

    /**
     * {@link #claim(String, Configuration)} for a run that starts afresh unless {@code resume}: without it, a
     * directory holding an earlier run's state is refused before anything is written, as the run's first save would
     * replace that run's files and its state, which a {@code --resume} of that run needs.
     *
     * @throws InvalidInputException also naming the newest earlier state, when a fresh run finds one
     */
    public static Claimed claim(String location, Configuration conf, boolean resume) {
        try {
            Place at = Place.of(location, conf);
            FileSystem fs = at.fs();
            Path dir = at.dir();
            Path marker = new Path(dir, MARKER);
            boolean existed = fs.exists(dir);
            String found = ""; // what the directory held before the marker, recorded in it for releaseUnused
            if (existed) {
                if (!fs.getFileStatus(dir).isDirectory()) {
                    throw new InvalidInputException("--checkpoint '" + location + "' is a file; give a directory");
                }
                boolean marked = fs.exists(marker);
                List<String> foreign = new ArrayList<>();
                String newestState = null;
                boolean earlier = false;
                for (FileStatus f : marked && resume ? new FileStatus[0] : fs.listStatus(dir)) {
                    String name = f.getPath().getName();
                    if (name.matches(STATE_NAME) && (newestState == null || name.compareTo(newestState) > 0)) {
                        newestState = name;
                    }
                    if (!marked && !name.equals(CheckpointLease.NAME)) { // a lease: another run entering or leaving
                        earlier = true;
                        if (!name.matches(EARLIER_CHECKPOINT)) {
                            foreign.add(name);
                        }
                    }
                }
                if (!resume && newestState != null) {
                    throw new InvalidInputException("--checkpoint '" + location + "' holds an earlier run's "
                            + "checkpoint (" + newestState + "); pass --resume to continue it, or give a new or "
                            + "empty directory");
                }
                if (marked) {
                    return Claimed.NOTHING;
                }
                if (!foreign.isEmpty()) {
                    throw new InvalidInputException("--checkpoint '" + location + "' holds files sparkmc did not "
                            + "write (" + String.join(", ", foreign.subList(0, Math.min(5, foreign.size())))
                            + (foreign.size() > 5 ? ", …" : "") + "); give a new or empty directory");
                }
                if (earlier && newestState == null) { // names alone (particles/, rows/, …) do not make it sparkmc's
                    throw new InvalidInputException("--checkpoint '" + location + "' holds files but no checkpoint "
                            + "state (state-NNNNN.json) and no " + MARKER + " marker, so not a checkpoint sparkmc "
                            + "wrote; give a new or empty directory");
                }
                if (earlier) {
                    LOG.info("{}: taking a checkpoint made before checkpoint directories were marked", location);
                }
                found = contents(fs, dir);
            }
            try {
                fs.mkdirs(dir);
                try (OutputStream out = fs.create(marker, true)) {
                    out.write(found.getBytes(StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                throw new InvalidInputException("cannot write checkpoint directory '" + location + "': "
                        + rootMessage(e) + "; choose another --checkpoint", e);
            }
            return existed ? Claimed.MARKER : Claimed.DIRECTORY;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot inspect checkpoint directory " + location, e);
        }
    }

    /**
     * Removes the directory a {@link #claim} created ({@code claimed}) if it is empty, once the run's lease is gone:
     * a lease another run has written there meanwhile keeps it. A failure is only warned of.
     */
    public static void removeIfEmpty(String location, Configuration conf, Claimed claimed) {
        removeIfEmpty(location, conf, claimed, null);
    }

    /**
     * {@link #removeIfEmpty(String, Configuration, Claimed)}, then the parents the claim created with it, up to
     * {@code createdFrom} ({@link #highestMissing} before the claim; null: the directory alone), each only if empty.
     */
    public static void removeIfEmpty(String location, Configuration conf, Claimed claimed, String createdFrom) {
        if (claimed != Claimed.DIRECTORY) {
            return;
        }
        try {
            Place at = Place.of(location, conf);
            Path top = createdFrom == null ? at.dir() : new Path(createdFrom);
            CreatedDirectories.removeEmpty(at.fs(), at.dir(), top);
        } catch (IOException | RuntimeException e) { // filled meanwhile, or gone: not this claim's to remove
            LOG.debug("checkpoint directory {} kept: {}", location, e.toString());
        }
    }

    /**
     * The highest of the checkpoint directory and its parents that does not exist yet (qualified), which a claim
     * would create; null when the directory exists or the location cannot be looked at (the claim says why).
     */
    public static String highestMissing(String location, Configuration conf) {
        try {
            Place at = Place.of(location, conf);
            Path top = CreatedDirectories.highestMissing(at.fs(), at.dir());
            return top == null ? null : top.toString();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** A checkpoint directory's file system and qualified path. */
    private record Place(FileSystem fs, Path dir) {
        static Place of(String location, Configuration conf) throws IOException {
            Path path = UserPaths.path("--checkpoint", location);
            FileSystem fs = path.getFileSystem(conf);
            return new Place(fs, fs.makeQualified(path));
        }
    }

    /** What {@link #claim} wrote: nothing (the directory was sparkmc's already), the marker, or the directory. */
    public enum Claimed {
        NOTHING, MARKER, DIRECTORY
    }

    /**
     * Undoes a {@link #claim} that wrote {@code claimed} if the run that made it wrote nothing else there: when the
     * directory holds just what it held before the claim (the marker records that: names, sizes and times), besides
     * the marker and the run's lease, the marker goes. So a run refused after its claim (a corrupt state found by
     * {@code --resume}, a master Spark cannot use) leaves a directory sparkmc had not marked unmarked, and a later run
     * still refuses it for the files sparkmc did not write. To be called while the run still holds the lease
     * ({@link CheckpointLease#close(Runnable)}), so that no other run enters the directory meanwhile; the directory
     * itself, if the claim created it, goes after the lease ({@link #removeIfEmpty}). A failure is only warned of.
     */
    public static void releaseUnused(String location, Configuration conf, Claimed claimed) {
        if (claimed == Claimed.NOTHING) {
            return;
        }
        try {
            Place at = Place.of(location, conf);
            FileSystem fs = at.fs();
            Path dir = at.dir();
            Path marker = new Path(dir, MARKER);
            if (!fs.exists(marker)) {
                return;
            }
            String recorded;
            try (InputStream in = fs.open(marker)) {
                recorded = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!recorded.equals(contents(fs, dir))) {
                return; // a save, or files added meanwhile: not this claim's to undo
            }
            fs.delete(marker, false);
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not remove the unused checkpoint directory {}: {}", location, e.toString());
        }
    }

    /**
     * The directory's entries other than the marker and leases, one line each (name, size, modification time), sorted:
     * what {@link #releaseUnused} compares with what the claim found. A save adds or changes a state, or a directory
     * of bulk data.
     */
    private static String contents(FileSystem fs, Path dir) throws IOException {
        List<String> lines = new ArrayList<>();
        for (FileStatus f : fs.listStatus(dir)) {
            String name = f.getPath().getName();
            if (!name.equals(MARKER) && !name.equals("." + MARKER + ".crc") && !name.startsWith(CheckpointLease.NAME)
                    && !name.startsWith("." + CheckpointLease.NAME)) {
                lines.add(name + "\t" + f.getLen() + "\t" + f.getModificationTime() + "\n");
            }
        }
        lines.sort(null);
        return String.join("", lines);
    }

    public FileSystem fileSystem() {
        return fs;
    }

    /** The checkpoint directory, qualified. */
    public Path dir() {
        return dir;
    }

    /** Fails if another run has taken over this directory's lease ({@link CheckpointLease#checkHeld}). */
    public void checkHeld() {
        CheckpointLease.checkHeld(dir);
    }

    /**
     * Writes {@code doc} (which must hold the {@code fingerprint}) as {@code state-<index>.json} atomically and
     * deletes every older state.
     */
    public void save(long index, Map<String, Object> doc) {
        if (!doc.containsKey("fingerprint")) {
            throw new IllegalArgumentException("a checkpoint state needs its fingerprint");
        }
        checkHeld();
        try {
            String body = JSON.writeValueAsString(doc);
            String content = body + CHECKSUM + sha256(body.getBytes(StandardCharsets.UTF_8)) + "\n";
            Path tmp = new Path(dir, ".state-" + index + ".json.tmp");
            try (OutputStream out = fs.create(tmp, true)) {
                out.write(content.getBytes(StandardCharsets.UTF_8));
            }
            Path target = new Path(dir, String.format("state-%05d.json", index));
            replace(tmp, target);
            for (FileStatus old : fs.listStatus(dir, p -> p.getName().matches(STATE_NAME))) {
                if (!old.getPath().getName().equals(target.getName())) {
                    fs.delete(old.getPath(), false);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write checkpoint in " + dir, e);
        }
    }

    /**
     * Writes {@code bytes} as {@code name} (a path under the directory) through a temporary file and a rename, so
     * the file is whole or absent; returns their SHA-256, for the state that will refer to it.
     */
    public String writeFile(String name, byte[] bytes) throws IOException {
        checkHeld();
        Path target = new Path(dir, name);
        Path tmp = new Path(target.getParent(), "." + target.getName() + ".tmp");
        try (OutputStream out = fs.create(tmp, true)) {
            out.write(bytes);
        }
        replace(tmp, target);
        return sha256(bytes);
    }

    /** The bytes of {@code name} (a path under the directory). */
    public byte[] readFile(String name) throws IOException {
        try (var in = fs.open(new Path(dir, name))) {
            return in.readAllBytes();
        }
    }

    /**
     * Checks that the saved Parquet data {@code path} are there and that every data file of them (hidden {@code _}
     * and {@code .} files aside) is Parquet: its footer reads. Needs no Spark, so a checkpoint's damaged file is
     * refused before Spark starts, not by a failed Spark task that logs its trace first.
     *
     * @param what what the data are, for the message: "draws", "particles", "topics"
     * @throws InvalidInputException naming them if they are missing or a file does not read
     */
    public void checkParquetData(Path path, String what) {
        try {
            if (!fs.exists(path)) {
                throw new InvalidInputException("checkpoint " + dir + " is incomplete: its " + what + " " + path
                        + " are missing; remove the checkpoint directory to start over");
            }
            for (FileStatus part : fs.listStatus(path, p -> !UserPaths.hidden(p))) {
                try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromStatus(part,
                        fs.getConf()))) {
                    reader.getFooter();
                }
            }
        } catch (InvalidInputException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw unreadable(what, path, e);
        }
    }

    /**
     * "checkpoint WHAT PATH cannot be read (the root cause); remove the checkpoint directory to start over": saved
     * data that do not read, before Spark starts or as Spark reads them.
     */
    public static InvalidInputException unreadable(String what, Object path, Exception e) {
        return new InvalidInputException("checkpoint " + what + " " + path + " cannot be read (" + rootMessage(e)
                + "); remove the checkpoint directory to start over", e);
    }

    /** Moves {@code from} (a file or directory) to {@code to}, replacing whatever is there. */
    public void replace(Path from, Path to) throws IOException {
        checkHeld();
        fs.delete(to, true);
        if (!fs.rename(from, to)) {
            throw new IOException("rename " + from + " -> " + to + " failed");
        }
    }

    /**
     * The newest state's JSON, verified: null when the directory holds none.
     *
     * @throws InvalidInputException if the state is corrupt, unreadable or was made with another fingerprint
     */
    public JsonNode loadNewest(String expectedFingerprint) {
        return loadNewest(expectedFingerprint, false);
    }

    /**
     * As {@link #loadNewest}, comparing only the settings {@code partialFingerprint} names: what a run knows before it
     * reads its data (a fingerprint without its {@code data-…} pairs, say), checked before Spark starts. The run
     * still loads the state with its whole fingerprint once it has the rest.
     */
    public JsonNode loadNewestComparing(String partialFingerprint) {
        return loadNewest(partialFingerprint, true);
    }

    private JsonNode loadNewest(String expectedFingerprint, boolean onlyItsSettings) {
        try {
            if (!fs.exists(dir)) {
                return null;
            }
            FileStatus newest = null;
            for (FileStatus f : fs.listStatus(dir, p -> p.getName().matches(STATE_NAME))) {
                if (newest == null || f.getPath().getName().compareTo(newest.getPath().getName()) > 0) {
                    newest = f;
                }
            }
            if (newest == null) {
                return null;
            }
            String content;
            try (InputStream in = fs.open(newest.getPath())) {
                content = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            int mark = content.lastIndexOf(CHECKSUM);
            String body = mark < 0 ? content : content.substring(0, mark);
            String sum = mark < 0 ? "" : content.substring(mark + CHECKSUM.length()).trim();
            if (!sum.equals(sha256(body.getBytes(StandardCharsets.UTF_8)))) {
                throw new InvalidInputException("checkpoint " + newest.getPath() + " is corrupt (its SHA-256 does not "
                        + "match its content); remove the checkpoint directory to start over");
            }
            JsonNode doc = JSON.readTree(body);
            String fingerprint = doc.path("fingerprint").asText();
            if (!fingerprint.equals(expectedFingerprint) && (fingerprint.contains(" params={")
                    || Fingerprint.isCurrent(expectedFingerprint) && !Fingerprint.isCurrent(fingerprint))) {
                throw new InvalidInputException("checkpoint " + dir + " was written by an earlier sparkmc (its settings"
                        + " are recorded in an older form this one cannot compare); remove the checkpoint directory to"
                        + " start over");
            }
            refuseSuperseded(fingerprint, expectedFingerprint);
            if (onlyItsSettings) {
                fingerprint = restricted(fingerprint, settings(expectedFingerprint).keySet());
            }
            if (!fingerprint.equals(expectedFingerprint)) {
                List<String> keys = differingKeys(fingerprint, expectedFingerprint);
                boolean data = !keys.isEmpty() && keys.stream().allMatch(k -> k.equals("data") || k.startsWith("data-"));
                throw new InvalidInputException("checkpoint " + dir + (data ? " was made on other data ("
                        : " was made by a run with other settings (") + settingsDifference(fingerprint,
                        expectedFingerprint) + "); --resume needs the same " + (data ? "data" : "settings"));
            }
            return doc;
        } catch (org.apache.hadoop.fs.ChecksumException e) {
            throw new InvalidInputException("checkpoint in " + dir + " is corrupt (the file system's checksum does not "
                    + "match); remove the checkpoint directory to start over", e);
        } catch (IOException e) {
            throw new InvalidInputException("cannot read checkpoint in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Fingerprint keys that replaced an earlier key when what they digest changed, with it: a checkpoint that has the
     * earlier key and not the new one cannot be compared with this run's.
     */
    private static final Map<String, String> SUPERSEDED = Map.of("resolved-params-sha256", "params-sha256");

    /** Refuses a checkpoint whose fingerprint has a key this run's has replaced ({@link #SUPERSEDED}), saying so. */
    private void refuseSuperseded(String saved, String expected) {
        Map<String, String> was = settings(saved);
        Map<String, String> now = settings(expected);
        SUPERSEDED.forEach((key, earlier) -> {
            if (now.containsKey(key) && !now.containsKey(earlier) && was.containsKey(earlier)
                    && !was.containsKey(key)) {
                throw new InvalidInputException("checkpoint " + dir + " was written by an earlier sparkmc, which "
                        + "fingerprinted the model's parameters as they were given (" + earlier + "), not as the "
                        + "model uses them with its defaults filled in (" + key + "), so this one cannot tell whether "
                        + "they changed; remove the checkpoint directory to start over, or resume with the sparkmc "
                        + "that wrote it");
            }
        });
    }

    /** A JSON array of numbers as doubles (non-finite values come back from their string form). */
    public static double[] doubles(JsonNode array) {
        double[] out = new double[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asDouble();
        }
        return out;
    }

    /**
     * "id:sha256" of {@code id}, {@code count} and the values of {@code arrays} in order: the digest of one block
     * (or chain) of a checkpoint's bulk data, the same in whichever task or partition it is computed. Values are
     * hashed by their bits, NaN in the one form Parquet stores, so data read back hashes as it did when written.
     */
    public static String digest(int id, int count, double[]... arrays) {
        int values = 0;
        for (double[] a : arrays) {
            values += a.length;
        }
        ByteBuffer buf = ByteBuffer.allocate(8 + 8 * values);
        buf.putInt(id).putInt(count);
        for (double[] a : arrays) {
            for (double v : a) {
                buf.putLong(Double.doubleToLongBits(v));
            }
        }
        return id + ":" + sha256(buf.array());
    }

    /** {@link #digest}s sorted by their ids. */
    public static List<String> byId(Collection<String> digests) {
        List<String> sorted = new ArrayList<>(digests);
        sorted.sort(Comparator.comparingInt(d -> Integer.parseInt(d.substring(0, d.indexOf(':')))));
        return sorted;
    }

    /**
     * Rethrows Spark's failure to read a checkpoint's data file unless it is the file's content (Spark's
     * {@code FAILED_READ_FILE}, a file gone, a page that does not decode, a checksum that does not match, bad
     * values): a lost connection or executor, or any other failure, is no damaged checkpoint, and a retry may pass
     * where "remove the checkpoint directory" would throw good work away. The caller refuses the checkpoint when
     * this returns.
     */
    public static void rethrowUnlessDamaged(Exception failure) {
        boolean content = false;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.SocketException || t instanceof java.net.UnknownHostException
                    || t instanceof java.io.InterruptedIOException) {
                content = false;
                break;
            }
            content |= t instanceof org.apache.spark.SparkThrowable st && st.getCondition() != null
                    && DAMAGE.matcher(st.getCondition()).lookingAt()
                    || t instanceof org.apache.parquet.io.ParquetDecodingException
                    || t instanceof org.apache.hadoop.fs.ChecksumException || t instanceof InvalidInputException;
        }
        if (!content) {
            throw failure instanceof RuntimeException r ? r
                    : new IllegalStateException("reading the checkpoint failed: " + rootMessage(failure), failure);
        }
    }

    /** Spark's error conditions for a file that is not there or does not read as what it should be. */
    private static final java.util.regex.Pattern DAMAGE =
            java.util.regex.Pattern.compile("FAILED_READ_FILE|PATH_NOT_FOUND|UNABLE_TO_INFER_SCHEMA");

    /** The first line of the message of the innermost cause (Spark wraps a task's failure several times). */
    public static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage();
        return m == null ? t.getClass().getSimpleName() : m.lines().findFirst().orElse(m);
    }

    /**
     * The settings that differ between two fingerprints of space-separated {@code key=value} pairs, as
     * "key: checkpoint X, now Y"; the two fingerprints whole if they do not parse that way.
     */
    static String settingsDifference(String saved, String now) {
        java.util.Map<String, String> a = settings(saved);
        java.util.Map<String, String> b = settings(now);
        java.util.Set<String> onlyThere = new java.util.TreeSet<>(a.keySet());
        onlyThere.removeAll(b.keySet());
        java.util.Set<String> onlyHere = new java.util.TreeSet<>(b.keySet());
        onlyHere.removeAll(a.keySet());
        if (2 * onlyHere.size() > b.size()) { // most of this run's settings are unknown there: another job's state
            return "it holds another job's state: it has the settings " + String.join(", ", onlyThere)
                    + ", this job has " + String.join(", ", onlyHere);
        }
        List<String> out = new java.util.ArrayList<>();
        for (String key : differingKeys(saved, now)) {
            out.add(shown(key) + digestOf(key) + ": checkpoint " + a.getOrDefault(key, "(none)") + ", now "
                    + b.getOrDefault(key, "(none)"));
        }
        return out.isEmpty() ? "checkpoint " + saved + ", now " + now : String.join("; ", out);
    }

    /** What a digest key of a fingerprint stands for, in parentheses; "" for another key. */
    private static String digestOf(String key) {
        return switch (key) {
            case "params-sha256" -> " (a digest of the model's parameters and data file: one of them changed)";
            case "resolved-params-sha256" -> " (a digest of the values of the model's parameters, defaults "
                    + "included: a parameter's value changed)";
            default -> "";
        };
    }

    /**
     * A fingerprint key as the option that sets it: a record's {@code kernelName} is the {@code kernel} option (the
     * key itself stays, so that checkpoints already written still resume).
     */
    private static String shown(String key) {
        return key.endsWith("-name") ? key.substring(0, key.length() - "-name".length()) : key;
    }

    /**
     * The keys whose values differ between two fingerprints, sorted; keys named {@code data} or {@code data-…}
     * describe the input data rather than settings.
     */
    private static List<String> differingKeys(String saved, String now) {
        java.util.Map<String, String> a = settings(saved);
        java.util.Map<String, String> b = settings(now);
        java.util.Set<String> keys = new java.util.TreeSet<>(a.keySet());
        keys.addAll(b.keySet());
        keys.removeIf(key -> java.util.Objects.equals(a.get(key), b.get(key)));
        return List.copyOf(keys);
    }

    /** {@code fingerprint}'s pairs whose keys are in {@code keys}, in its order. */
    private static String restricted(String fingerprint, java.util.Set<String> keys) {
        List<String> pairs = new java.util.ArrayList<>();
        settings(fingerprint).forEach((key, value) -> {
            if (keys.contains(key)) {
                pairs.add(key + "=" + value);
            }
        });
        return String.join(" ", pairs);
    }

    private static java.util.Map<String, String> settings(String fingerprint) {
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        for (String pair : fingerprint.split("\\s+(?=[A-Za-z][\\w-]*=)")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return out;
    }

    /** SHA-256 of a text (UTF-8), hex: a fixed-size stand-in for long settings such as a model's data. */
    public static String sha256(String text) {
        return sha256(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The lower-case hex SHA-256 of the bytes. */
    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
