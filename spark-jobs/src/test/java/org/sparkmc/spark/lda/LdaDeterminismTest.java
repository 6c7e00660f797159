package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.SparkmcKryoRegistrator;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/**
 * The same seed and number of blocks give identical topics, log-likelihoods and document–topic distributions with
 * local[1] on one partition and local[2] on three; another number of blocks gives another (equally valid) chain.
 * Each run gets its own local Spark context.
 */
class LdaDeterminismTest {
    @TempDir
    Path tmp;

    private record Outputs(String topics, List<String> loglik, List<String> docTopics) {
    }

    @Test
    void topicsDoNotDependOnCoresOrPartitions() {
        Outputs oneCore = run("local[1]", "1", "4");
        Outputs twoCores = run("local[2]", "3", "4");
        assertEquals(oneCore, twoCores);
        Outputs otherBlocks = run("local[2]", "3", "3");
        assertNotEquals(oneCore.topics(), otherBlocks.topics());
    }

    private Outputs run(String master, String partitions, String blocks) {
        Path out = tmp.resolve(master.replaceAll("\\W", "") + "-" + partitions + "-" + blocks);
        SparkSession spark = SparkSession.builder().master(master).appName("lda-determinism")
                .config("spark.ui.enabled", "false")
                .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .config("spark.kryo.registrationRequired", "true")
                .config("spark.kryo.registrator", SparkmcKryoRegistrator.class.getName())
                .getOrCreate();
        try {
            assertEquals(ExitCode.OK, Main.run(LdaRuns.kos(out, 3, "--partitions", partitions, "--blocks", blocks)));
            return new Outputs(LdaRuns.read(out.resolve("topics.csv")), LdaRuns.loglikWithoutTimes(out),
                    LdaRuns.docTopics(spark, out));
        } finally {
            spark.stop();
            SparkSession.clearActiveSession();
            SparkSession.clearDefaultSession();
        }
    }
}
