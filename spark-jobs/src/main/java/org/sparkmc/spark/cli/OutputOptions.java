package org.sparkmc.spark.cli;

import org.apache.spark.sql.SparkSession;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.io.AtomicOutput;
import org.sparkmc.spark.io.RunPaths;
import picocli.CommandLine.Option;

/** The options of a job that writes an output directory with Spark: where, whether to replace it, which master. */
public final class OutputOptions {
    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (required; file://, hdfs://, s3a://).")
    private String out;

    @Option(names = "--overwrite", fallbackValue = "true", description = "Replace an existing output directory.")
    private boolean overwrite;

    @Option(names = "--master", paramLabel = "URL",
            description = "Spark master; given, it replaces spark-submit's. Default: spark-submit's, else local[*].")
    private String master;

    /** Fails as bad input when no output directory was given; call before Spark starts. */
    public void requireOut() {
        if (out == null || out.isBlank()) {
            throw new InvalidInputException("--out DIR is required (or 'out' in the config file)");
        }
    }

    /** The job's Spark session on the master given, or spark-submit's. */
    public SparkSession session(String appName) {
        return SparkSetup.session(appName, master);
    }

    /** {@link SparkSetup#refuseWorkBeyondTheLocalHeap} on this job's master. */
    public void refuseWorkBeyondTheLocalHeap(int partitions, long leastBytes, String what) {
        SparkSetup.refuseWorkBeyondTheLocalHeap(master, partitions, leastBytes, what);
    }

    /**
     * The staged output directory, opened before Spark starts so a refusal is quick: refused when it exists without
     * --overwrite, or when it may not be replaced or overlaps the run's other paths ({@link AtomicOutput#open}).
     */
    public AtomicOutput open(RunPaths paths) {
        return AtomicOutput.open(out, overwrite, SparkSetup.hadoopConfiguration(), paths);
    }
}
