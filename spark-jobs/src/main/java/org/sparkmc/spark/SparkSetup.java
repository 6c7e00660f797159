package org.sparkmc.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * Obtains the SparkSession a job runs in: the one spark-submit (or a test) configured, or local mode with every
 * core when no master is set. Kryo with registration required is switched on unless the user configured a
 * serializer, so an unregistered class shipped between driver and executors fails loudly. Jobs never stop the
 * session: the process entry point does ({@code Main.main}), and tests own theirs.
 */
public final class SparkSetup {
    private SparkSetup() {
    }

    public static SparkSession session(String appName, String masterOverride) {
        SparkConf conf = new SparkConf();
        if (masterOverride != null && !masterOverride.isBlank()) {
            conf.setMaster(masterOverride);
        }
        conf.setIfMissing("spark.master", "local[*]");
        conf.setIfMissing("spark.app.name", appName);
        conf.setIfMissing("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
        conf.setIfMissing("spark.kryo.registrationRequired", "true");
        conf.setIfMissing("spark.kryo.registrator", SparkmcKryoRegistrator.class.getName());
        conf.setIfMissing("spark.ui.showConsoleProgress", "false");
        return SparkSession.builder().config(conf).getOrCreate();
    }

    /** Stops the session this process started, if any. */
    public static void stopActive() {
        SparkSession.getDefaultSession().foreach(s -> {
            s.stop();
            return null;
        });
    }
}
