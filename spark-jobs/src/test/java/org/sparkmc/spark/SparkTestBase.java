package org.sparkmc.spark;

import com.holdenkarau.spark.testing.SharedJavaSparkContext;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * A shared local[2] Spark context from Spark Testing Base, configured as the jobs configure theirs (Kryo with
 * registration required). Its JUnit 4 lifecycle is bridged to Jupiter by hand.
 */
public abstract class SparkTestBase extends SharedJavaSparkContext {

    @Override
    public SparkConf conf() {
        return new SparkConf().setMaster("local[2]").setAppName("sparkmc-test")
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1")
                .set("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .set("spark.kryo.registrationRequired", "true")
                .set("spark.kryo.registrator", SparkmcKryoRegistrator.class.getName())
                .set("spark.sql.shuffle.partitions", "4")
                .set("spark.app.id", appID());
    }

    @BeforeEach
    void startSpark() {
        runBefore();
    }

    @AfterAll
    static void stopSpark() {
        SharedJavaSparkContext.runAfterClass();
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
    }

    /** A session on the shared context. */
    protected SparkSession spark() {
        return SparkSession.builder().getOrCreate();
    }
}
