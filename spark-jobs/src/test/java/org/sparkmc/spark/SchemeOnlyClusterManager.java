package org.sparkmc.spark;

import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.ExternalClusterManager;
import org.apache.spark.scheduler.SchedulerBackend;
import org.apache.spark.scheduler.TaskScheduler;

/**
 * A cluster manager that takes the master URLs of one scheme and runs nothing: it stands for Spark's YARN and
 * Kubernetes modules, which sparkmc's class path lacks, so that a test can show a master some manager on the class
 * path takes is not refused ({@link SparkSetup#refuseAMasterSparkCannotUse}). Listed in the test resources'
 * {@code META-INF/services}, as Spark finds its own.
 */
public final class SchemeOnlyClusterManager implements ExternalClusterManager {
    /** The scheme this manager takes. */
    public static final String SCHEME = "sparkmc-test://";

    @Override
    public boolean canCreate(String masterURL) {
        return masterURL.startsWith(SCHEME);
    }

    @Override
    public TaskScheduler createTaskScheduler(SparkContext sc, String masterURL) {
        throw new UnsupportedOperationException("a test scheme: it starts no scheduler");
    }

    @Override
    public SchedulerBackend createSchedulerBackend(SparkContext sc, String masterURL, TaskScheduler scheduler) {
        throw new UnsupportedOperationException("a test scheme: it starts no scheduler");
    }

    @Override
    public void initialize(TaskScheduler scheduler, SchedulerBackend backend) {
        throw new UnsupportedOperationException("a test scheme: it starts no scheduler");
    }
}
