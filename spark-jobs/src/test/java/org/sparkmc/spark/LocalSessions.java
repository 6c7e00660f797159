package org.sparkmc.spark;

import java.util.function.Function;
import org.apache.spark.sql.SparkSession;

/** Fresh local Spark sessions for tests that start and stop their own (as a job's driver does). */
public final class LocalSessions {
    private LocalSessions() {
    }

    /**
     * {@code body} on a fresh local session with the jobs' Kryo settings (registration required), stopped
     * afterwards.
     *
     * @param master a local master URL, e.g. {@code local[2]}
     */
    public static <T> T with(String master, String appName, Function<SparkSession, T> body) {
        SparkSession spark = SparkSession.builder().master(master).appName(appName)
                .config("spark.ui.enabled", "false")
                .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .config("spark.kryo.registrationRequired", "true")
                .config("spark.kryo.registrator", SparkmcKryoRegistrator.class.getName())
                .getOrCreate();
        try {
            return body.apply(spark);
        } finally {
            spark.stop();
            SparkSession.clearActiveSession();
            SparkSession.clearDefaultSession();
        }
    }
}
