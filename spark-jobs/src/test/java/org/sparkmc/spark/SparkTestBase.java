package org.sparkmc.spark;

import com.holdenkarau.spark.testing.SharedJavaSparkContext;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * A shared local[2] Spark context from Spark Testing Base, configured as the jobs configure theirs
 * ({@link SparkSetup#withDefaults}: Kryo with registration required, among others). Its JUnit 4 lifecycle is
 * bridged to Jupiter by hand.
 */
public abstract class SparkTestBase extends SharedJavaSparkContext {

    @Override
    public SparkConf conf() {
        return SparkSetup.withDefaults(new SparkConf().setMaster("local[2]")
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1")
                .set("spark.sql.shuffle.partitions", "4")
                .set("spark.app.id", appID()), "sparkmc-test");
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
