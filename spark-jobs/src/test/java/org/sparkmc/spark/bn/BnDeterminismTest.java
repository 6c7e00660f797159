package org.sparkmc.spark.bn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.bayesnet.BayesNet;
import org.sparkmc.core.bayesnet.BlockPlan;
import org.sparkmc.core.bayesnet.Evidence;
import org.sparkmc.core.bayesnet.LikelihoodWeighting;
import org.sparkmc.core.bayesnet.Marginal;
import org.sparkmc.core.bayesnet.WeightedCounts;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.LocalSessions;

/**
 * The same seed gives bit-identical estimates whatever the partitioning and the number of local cores — blocks and
 * chains own their random streams, and block statistics merge exactly — and the same estimates as core's
 * likelihood weighting run in a plain loop. Each run gets its own local Spark context.
 */
class BnDeterminismTest {
    private static final String EVIDENCE = "HISTORY=TRUE,CVP=LOW";

    @TempDir
    Path tmp;

    @Test
    void likelihoodWeightingDoesNotDependOnPartitionsOrCores() {
        String[] args = {"--evidence", EVIDENCE, "--query", "LVFAILURE,CO", "--samples", "230000", "--block-size",
            "10000", "--seed", "99", "--exact=never"};
        JsonNode oneCoreOne = inSession("local[1]", () -> BnRuns.run(tmp.resolve("a"), with(args, "1")));
        JsonNode twoCoresFour = inSession("local[2]", () -> BnRuns.run(tmp.resolve("b"), with(args, "4")));
        JsonNode twoCoresSeven = inSession("local[2]", () -> BnRuns.run(tmp.resolve("c"), with(args, "7")));
        assertEquals(oneCoreOne.get("queries"), twoCoresFour.get("queries"));
        assertEquals(oneCoreOne.get("queries"), twoCoresSeven.get("queries"));
        assertEquals(oneCoreOne.get("ess"), twoCoresFour.get("ess"));
        assertEquals(oneCoreOne.get("evidence_probability"), twoCoresFour.get("evidence_probability"));

        BayesNet net = BnRuns.alarm();
        WeightedCounts plain = LikelihoodWeighting.of(net, Evidence.parse(net, EVIDENCE),
                net.requireVariable("LVFAILURE"), net.requireVariable("CO"))
                .run(new RandomStreams(99), new BlockPlan(230_000, 10_000));
        Marginal co = plain.posterior(net, 1);
        JsonNode states = BnRuns.states(oneCoreOne, "CO");
        for (int s = 0; s < co.probabilities().length; s++) {
            assertEquals(co.probabilities()[s], states.get(s).get("probability").asDouble(), 0);
            assertEquals(co.standardErrors()[s], states.get(s).get("se").asDouble(), 0);
        }
        assertEquals(plain.ess(), oneCoreOne.get("ess").asDouble(), 0);
    }

    @Test
    void gibbsDoesNotDependOnPartitionsOrCores() {
        String[] args = {"--method", "gibbs", "--evidence", EVIDENCE, "--query", "HYPOVOLEMIA", "--chains", "3",
            "--warmup", "100", "--draws", "600", "--round-size", "300", "--seed", "5", "--exact=never"};
        JsonNode one = inSession("local[1]", () -> BnRuns.run(tmp.resolve("g1"), with(args, "1")));
        JsonNode three = inSession("local[2]", () -> BnRuns.run(tmp.resolve("g3"), with(args, "3")));
        assertEquals(one.get("queries"), three.get("queries"));
        assertEquals(one.get("indicators"), three.get("indicators"));
        // Seven partitions for three chains ran four empty tasks, and summary.json said 7.
        JsonNode seven = inSession("local[2]", () -> BnRuns.run(tmp.resolve("g7"), with(args, "7")));
        assertEquals(3, seven.get("partitions").asInt());
        assertEquals(one.get("queries"), seven.get("queries"));
    }

    private static String[] with(String[] args, String partitions) {
        String[] out = java.util.Arrays.copyOf(args, args.length + 2);
        out[args.length] = "--partitions";
        out[args.length + 1] = partitions;
        return out;
    }

    private static JsonNode inSession(String master, Supplier<JsonNode> run) {
        return LocalSessions.with(master, "bn-determinism", spark -> run.get());
    }
}
