package org.sparkmc.spark;

import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.ExternalClusterManager;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.core.InvalidInputException;

/**
 * Obtains the SparkSession a job runs in: the one spark-submit (or a test) configured, or local mode with every
 * core when no master is set. Kryo with registration required is switched on unless the user configured a
 * serializer, so an unregistered class shipped between driver and executors fails loudly; sparkmc's registrator is
 * added to any the cluster configures (Spark takes a comma-separated list). Jobs never stop the session: the process
 * entry point does ({@code Main.main}), and tests own theirs.
 */
public final class SparkSetup {
    private SparkSetup() {
    }

    /** Whether this process asked for a session: a run refused before Spark never loads Spark's classes. */
    private static volatile boolean started;

    /**
     * The session, started with {@code masterOverride} (--master) as its master if given.
     *
     * @throws InvalidInputException for a master URL Spark cannot use, before its context starts ({@code local[0]},
     *     {@code bogus://x}: {@link #refuseAMasterSparkCannotUse}), or when Spark refuses it
     */
    public static SparkSession session(String appName, String masterOverride) {
        started = true;
        SparkConf conf = new SparkConf();
        boolean given = masterOverride != null && !masterOverride.isBlank();
        if (given) {
            conf.setMaster(masterOverride);
        }
        withDefaults(conf, appName);
        refuseAMasterSparkCannotUse(conf.get("spark.master"), given);
        // Spark's tests (spark.testing, as in local-cluster runs) set their own memory rules
        if (!conf.contains("spark.testing") && !conf.contains("spark.testing.memory")
                && !conf.contains("spark.testing.reservedMemory")) {
            refuseAHeapSparkCannotUse(Runtime.getRuntime().maxMemory());
        }
        try {
            return SparkSession.builder().config(conf).getOrCreate();
        } catch (Exception e) { // Spark's SparkException is checked in Java but thrown undeclared from Scala
            String message = String.valueOf(e.getMessage());
            if (message.startsWith("Could not parse Master URL")) {
                throw new InvalidInputException((given ? "--master" : "spark.master") + " '" + conf.get("spark.master")
                        + "' is not a master Spark can use (" + message + "); " + MASTERS, e);
            }
            throw e;
        }
    }

    /**
     * Refuses a master Spark would refuse before its context starts, as Spark sorts them: a {@code local…} one it
     * cannot run ({@code local[0]}, {@code local[x]}), and any but {@code local…} and {@code spark://…} that no
     * cluster manager on the class path takes ({@code bogus://x}; {@code yarn} or {@code k8s://…} without Spark's
     * module for it). Spark's own refusal came after some sixty lines of its traces.
     */
    static void refuseAMasterSparkCannotUse(String master, boolean given) {
        String option = (given ? "--master" : "spark.master") + " '" + master + "'";
        if (master.equals("local") || master.startsWith("local-cluster[") || master.startsWith("spark://")) {
            return;
        }
        if (master.startsWith("local")) {
            java.util.regex.Matcher m = LOCAL_MASTER.matcher(master);
            long threads = !m.matches() || m.group(1).equals("*") ? 1 : m.group(1).length() > 10 ? 0
                    : Long.parseLong(m.group(1));
            if (!m.matches() || threads < 1 || threads > Integer.MAX_VALUE) {
                throw new InvalidInputException(option + " is not a master Spark can use; " + MASTERS);
            }
            return;
        }
        ClassLoader loader = Thread.currentThread().getContextClassLoader() != null
                ? Thread.currentThread().getContextClassLoader() : SparkSetup.class.getClassLoader();
        for (ExternalClusterManager manager : java.util.ServiceLoader.load(ExternalClusterManager.class, loader)) {
            if (manager.canCreate(master)) {
                return;
            }
        }
        throw new InvalidInputException(option + " is not a master Spark can use: no cluster manager on the class path "
                + "takes it; " + MASTERS + " (yarn and k8s:// need Spark's YARN or Kubernetes module, as spark-submit "
                + "of a Spark distribution built with them has)");
    }

    /** The least heap Spark's driver starts with: 1.5 × its 300 MiB reserve (Spark's UnifiedMemoryManager). */
    static final long LEAST_HEAP = 300L * 1024 * 1024 * 3 / 2;

    /**
     * Refuses a driver heap below Spark's least, which Spark refused with a 50-line trace (exit 1) and a hint at
     * {@code --driver-memory}, an option the local launcher does not have.
     */
    static void refuseAHeapSparkCannotUse(long maxHeap) {
        if (maxHeap < LEAST_HEAP) {
            throw new InvalidInputException(String.format(java.util.Locale.ROOT, "this JVM's heap is at most %d MiB; "
                    + "Spark's driver needs at least %d MiB: raise -Xmx in SPARKMC_JAVA_OPTS (submit/sparkmc), or "
                    + "--driver-memory under spark-submit", maxHeap >> 20, LEAST_HEAP >> 20));
        }
    }

    /**
     * Refuses, before Spark starts, work whose data cannot fit in local mode's one JVM, which runs the tasks: it ran
     * out of memory (exit 52) instead. The work is {@code leastBytes} at the least (a lower bound), spread evenly
     * over {@code partitions} tasks (0: one a local thread, Spark's default), of which as many as the master has
     * threads run at once, each holding its share; so a run in waves of tasks is judged by one wave. Nothing is
     * checked for a cluster master, whose executors' memory this JVM does not know.
     *
     * @param masterOverride --master, or null for spark-submit's (local[*] without one)
     * @param what           the work, leading the message ("--particles 2000000000: the particles' states")
     */
    public static void refuseWorkBeyondTheLocalHeap(String masterOverride, int partitions, long leastBytes,
            String what) {
        // as the session will resolve it, without loading Spark's classes for a refusal: spark-submit passes its
        // master as a system property, which SparkConf reads
        String master = masterOverride != null && !masterOverride.isBlank() ? masterOverride
                : System.getProperty("spark.master", DEFAULT_MASTER);
        java.util.regex.Matcher m = LOCAL_MASTER.matcher(master);
        if (!master.equals("local") && !m.matches()) {
            return;
        }
        long threads = master.equals("local") ? 1
                : m.group(1).equals("*") ? Runtime.getRuntime().availableProcessors() : Long.parseLong(m.group(1));
        long tasks = partitions > 0 ? partitions : threads;
        double held = (double) leastBytes * Math.min(threads, tasks) / tasks;
        long heap = Runtime.getRuntime().maxMemory();
        if (held > heap) {
            throw new InvalidInputException(String.format(java.util.Locale.ROOT, "%s take at least %.1f GiB, and "
                    + "local mode holds them in this JVM, whose heap is at most %.1f GiB: raise -Xmx in "
                    + "SPARKMC_JAVA_OPTS, ask for less, or run on a cluster", what, held / GIB, heap / GIB));
        }
    }

    private static final double GIB = 1024.0 * 1024 * 1024;

    /** The master without --master or spark-submit's. */
    private static final String DEFAULT_MASTER = "local[*]";

    /** What to give instead of a master Spark cannot use. */
    private static final String MASTERS = "give local[*], local[N] with N ≥ 1, spark://HOST:PORT, yarn or k8s://URL";

    /** Spark's local masters: local[N] or local[*], and with a number of task failures allowed, local[N, F]. */
    private static final java.util.regex.Pattern LOCAL_MASTER =
            java.util.regex.Pattern.compile("local\\[([0-9]+|\\*)(\\s*,\\s*[0-9]+)?\\]");

    /** sparkmc's defaults on top of what spark-submit, the cluster's spark-defaults.conf or a test set. */
    static SparkConf withDefaults(SparkConf conf, String appName) {
        conf.setIfMissing("spark.master", DEFAULT_MASTER);
        conf.setIfMissing("spark.app.name", appName);
        conf.setIfMissing("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
        conf.setIfMissing("spark.kryo.registrationRequired", "true");
        String ours = SparkmcKryoRegistrator.class.getName();
        String registrators = conf.get("spark.kryo.registrator", "").trim();
        if (Arrays.stream(registrators.split(",")).map(String::trim).noneMatch(ours::equals)) {
            conf.set("spark.kryo.registrator", registrators.isEmpty() ? ours : registrators + "," + ours);
        }
        conf.setIfMissing("spark.ui.showConsoleProgress", "false");
        // Spark lists more than 32 paths with a job that ships Hadoop's FileStatus subclasses, one per file system
        // (HDFS's, S3A's…), which Kryo's required registration cannot name in advance: a CSV table's header read of a
        // directory of 40 files failed so. The driver lists them itself instead.
        conf.setIfMissing("spark.sql.sources.parallelPartitionDiscovery.threshold", String.valueOf(Integer.MAX_VALUE));
        return conf;
    }

    /**
     * The Hadoop configuration for file-system calls made before Spark starts (checking the output and checkpoint
     * locations, reading small inputs): Hadoop's own files plus the {@code spark.hadoop.*} settings spark-submit or
     * the cluster's spark-defaults.conf pass, as Spark's own configuration will hold them.
     */
    public static Configuration hadoopConfiguration() {
        Configuration hadoop = new Configuration();
        // What new SparkConf() would hold: the JVM's spark.* system properties, read without loading Spark.
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("spark.hadoop.")) {
                hadoop.set(key.substring("spark.hadoop.".length()), System.getProperty(key));
            }
        }
        return hadoop;
    }

    /** Stops the session this process started, if any. */
    public static void stopActive() {
        if (!started) {
            return;
        }
        SparkSession.getDefaultSession().foreach(s -> {
            s.stop();
            return null;
        });
    }
}
