package org.sparkmc.spark.chains;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.KernelSettings;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.SparkmcKryoRegistrator;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/**
 * A user's kernel named as {@code --kernel class:…} runs on the executors as a built-in one does: its typed state
 * carries its warm-up's adaptation from round to round, its per-step statistic lands in {@code draws.parquet} under
 * the name it gives, and the draws are the core API's, bit for bit, whatever the partitions and cores.
 */
class ChainsUserKernelTest {
    private static final String KERNEL = "class:" + UserAdaptiveWalk.class.getName();
    private static final String[] RUN = {"chains", "--model", "bimodal", "--kernel", KERNEL, "--scale", "3",
        "--chains", "4", "--warmup", "300", "--round-size", "200", "--max-rounds", "2", "--min-ess", "1e9",
        "--seed", "78"};

    @TempDir
    Path tmp;

    @Test
    void aUserKernelRunsOnTheExecutorsWithItsStateAndStatistics() {
        List<Row> onePartition = run("local[1]", 1);
        List<Row> threePartitions = run("local[2]", 3);
        assertEquals(4 * 400, onePartition.size());
        assertEquals(onePartition, threePartitions);
        assertEquals(plainLoop(), column(onePartition, "x"));

        List<Double> steps = column(onePartition, "stepsize__");
        for (int chain = 0; chain < 4; chain++) {
            List<Double> own = steps.subList(chain * 400, (chain + 1) * 400);
            assertTrue(own.stream().distinct().count() == 1, "the step size is fixed after warm-up: " + own.get(0));
            assertNotEquals(3.0, own.get(0), "the warm-up adapted the step size of chain " + (chain + 1));
        }
    }

    private List<Row> run(String master, int partitions) {
        Path out = tmp.resolve(master.replaceAll("\\W", "") + "-" + partitions);
        SparkSession spark = SparkSession.builder().master(master).appName("user-kernel")
                .config("spark.ui.enabled", "false")
                .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .config("spark.kryo.registrationRequired", "true")
                .config("spark.kryo.registrator", SparkmcKryoRegistrator.class.getName())
                .getOrCreate();
        try {
            String[] args = java.util.Arrays.copyOf(RUN, RUN.length + 4);
            args[RUN.length] = "--partitions";
            args[RUN.length + 1] = Integer.toString(partitions);
            args[RUN.length + 2] = "--out";
            args[RUN.length + 3] = out.toString();
            assertEquals(ExitCode.OK, Main.run(args));
            return ChainsOutputs.draws(spark, out);
        } finally {
            spark.stop();
            SparkSession.clearActiveSession();
            SparkSession.clearDefaultSession();
        }
    }

    /** The same four chains through the core API: warm-up 300 in rounds of 200, then two rounds of 200. */
    private static List<Double> plainLoop() {
        Target target = new BimodalMixture(5);
        Kernel<?> kernel = KernelCatalog.create(KERNEL, new KernelSettings(3, true, Double.NaN, 1, 300));
        RandomStreams streams = new RandomStreams(78);
        List<Double> xs = new ArrayList<>();
        for (long chain = 1; chain <= 4; chain++) {
            ChainState state = ChainRound.start(chain, target, kernel, streams);
            state = ChainRound.run(target, kernel, state, 1, 200, true, false, streams).state();
            state = ChainRound.run(target, kernel, state, 2, 100, true, false, streams).state();
            for (int round = 3; round <= 4; round++) {
                RoundResult r = ChainRound.run(target, kernel, state, round, 200, false, true, streams);
                for (double x : r.draws()[0]) {
                    xs.add(x);
                }
                state = r.state();
            }
        }
        return xs;
    }

    private static List<Double> column(List<Row> rows, String name) {
        return rows.stream().map(r -> r.getDouble(r.fieldIndex(name))).toList();
    }
}
