package org.sparkmc.spark;

import com.holdenkarau.spark.testing.SharedJavaSparkContext;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
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

    /** How many Spark jobs {@code action} started on the shared context (0: whatever it refused, it refused first). */
    protected int sparkJobs(Runnable action) {
        AtomicInteger jobs = new AtomicInteger();
        SparkListener counter = new SparkListener() {
            @Override
            public void onJobStart(SparkListenerJobStart job) {
                jobs.incrementAndGet();
            }
        };
        try {
            spark().sparkContext().listenerBus().waitUntilEmpty(10_000);
            spark().sparkContext().addSparkListener(counter);
            try {
                action.run();
                spark().sparkContext().listenerBus().waitUntilEmpty(10_000);
                return jobs.get();
            } finally {
                spark().sparkContext().removeSparkListener(counter);
            }
        } catch (TimeoutException e) {
            throw new AssertionError("Spark's listener bus did not drain in 10 s", e);
        }
    }
}
