package org.sparkmc.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;

/** sparkmc's Spark defaults: Kryo with its registrator, kept alongside whatever the cluster configures. */
class SparkSetupTest {
    private static final String OURS = SparkmcKryoRegistrator.class.getName();

    @Test
    void kryoWithSparkmcsRegistratorByDefault() {
        SparkConf conf = SparkSetup.withDefaults(new SparkConf(false), "t");
        assertEquals("org.apache.spark.serializer.KryoSerializer", conf.get("spark.serializer"));
        assertEquals("true", conf.get("spark.kryo.registrationRequired"));
        assertEquals(OURS, conf.get("spark.kryo.registrator"));
        assertEquals("local[*]", conf.get("spark.master"));
    }

    /** A heap Spark's driver cannot start with (-Xmx200m: exit 1 after a 50-line trace) is refused first. */
    @Test
    void aHeapBelowSparksLeastIsRefusedBeforeItStarts() {
        SparkSetup.refuseAHeapSparkCannotUse(SparkSetup.LEAST_HEAP);
        String message = assertThrows(InvalidInputException.class,
                () -> SparkSetup.refuseAHeapSparkCannotUse(200L << 20)).getMessage();
        assertEquals("this JVM's heap is at most 200 MiB; Spark's driver needs at least 450 MiB: raise -Xmx in "
                + "SPARKMC_JAVA_OPTS (submit/sparkmc), or --driver-memory under spark-submit", message);
    }

    /**
     * Work beyond local mode's heap is refused before Spark starts: by the tasks that run at once, each with its
     * share (a run of many small partitions in waves passes); never on a cluster master.
     */
    @Test
    void workBeyondTheLocalHeapIsJudgedByOneWaveOfTasks() {
        long tenHeaps = 10 * Runtime.getRuntime().maxMemory();
        String message = assertThrows(InvalidInputException.class,
                () -> SparkSetup.refuseWorkBeyondTheLocalHeap("local[2]", 0, tenHeaps, "the work")).getMessage();
        assertEquals(true, message.startsWith("the work take at least "), message);
        SparkSetup.refuseWorkBeyondTheLocalHeap("local[2]", 1000, tenHeaps, "many partitions");
        SparkSetup.refuseWorkBeyondTheLocalHeap("spark://h:7077", 0, tenHeaps, "a cluster");
        assertThrows(InvalidInputException.class,
                () -> SparkSetup.refuseWorkBeyondTheLocalHeap("local", 1000, tenHeaps * 1000, "one thread"));
    }

    /**
     * The masters Spark runs pass; those it refuses (after some sixty lines of traces) are refused first: a local one
     * it cannot run, and one no cluster manager on the class path takes (this class path has Spark's core only, so
     * yarn and k8s:// too, which Spark refuses here alike).
     */
    @Test
    void aMasterSparkCannotUseIsRefusedBeforeItStarts() {
        for (String ok : List.of("local", "local[*]", "local[1]", "local[2]", "local[4, 3]", "local[*,2]",
                "local-cluster[2, 1, 1024]", "spark://h:7077", "spark://h:7077,g:7077")) {
            SparkSetup.refuseAMasterSparkCannotUse(ok, true);
        }
        for (String bad : List.of("local[0]", "local[x]", "local[-1]", "local[]", "local2", "local[99999999999]")) {
            String message = assertThrows(InvalidInputException.class,
                    () -> SparkSetup.refuseAMasterSparkCannotUse(bad, true), bad).getMessage();
            assertEquals("--master '" + bad + "' is not a master Spark can use; give local[*], local[N] with N ≥ 1, "
                    + "spark://HOST:PORT, yarn or k8s://URL", message);
        }
        for (String bad : List.of("bogus://x", "yarn", "k8s://https://h:443", "mesos://h:5050")) {
            String message = assertThrows(InvalidInputException.class,
                    () -> SparkSetup.refuseAMasterSparkCannotUse(bad, false), bad).getMessage();
            assertEquals("spark.master '" + bad + "' is not a master Spark can use: no cluster manager on the class "
                    + "path takes it; give local[*], local[N] with N ≥ 1, spark://HOST:PORT, yarn or k8s://URL (yarn "
                    + "and k8s:// need Spark's YARN or Kubernetes module, as spark-submit of a Spark distribution built "
                    + "with them has)", message);
        }
    }

    /**
     * A master a cluster manager on the class path takes passes, as yarn does where Spark's YARN module is:
     * {@link SchemeOnlyClusterManager}, listed in the test resources' services, takes {@code sparkmc-test://}.
     */
    @Test
    void aMasterAClusterManagerTakesPasses() {
        SparkSetup.refuseAMasterSparkCannotUse(SchemeOnlyClusterManager.SCHEME + "h:1", true);
    }

    @Test
    void aClustersOwnRegistratorIsKeptAndOursAdded() {
        SparkConf conf = new SparkConf(false).set("spark.kryo.registrator", "com.example.Reg")
                .set("spark.master", "spark://h:7077");
        SparkSetup.withDefaults(conf, "t");
        assertEquals("com.example.Reg," + OURS, conf.get("spark.kryo.registrator"));
        assertEquals("spark://h:7077", conf.get("spark.master"));
        // Already listed: left as it is.
        SparkConf listed = new SparkConf(false).set("spark.kryo.registrator", OURS + ", com.example.Reg");
        assertEquals(OURS + ", com.example.Reg", SparkSetup.withDefaults(listed, "t").get("spark.kryo.registrator"));
    }

    /** The settings spark-submit passes as spark.hadoop.* reach the pre-Spark Hadoop configuration, as SparkConf's. */
    @Test
    void hadoopSettingsAreTheSparkHadoopSystemPropertiesAsSparkConfHoldsThem() {
        String key = "spark.hadoop.sparkmc.test.setting";
        System.setProperty(key, "from-submit");
        try {
            assertEquals("from-submit", SparkSetup.hadoopConfiguration().get("sparkmc.test.setting"));
            assertEquals(new SparkConf().get(key), SparkSetup.hadoopConfiguration().get("sparkmc.test.setting"));
        } finally {
            System.clearProperty(key);
        }
    }
}
