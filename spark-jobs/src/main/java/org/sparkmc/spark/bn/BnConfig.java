package org.sparkmc.spark.bn;

import java.util.Locale;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.bayesnet.BayesNet;
import org.sparkmc.core.bayesnet.Evidence;
import org.sparkmc.spark.cli.JobCommand;
import org.sparkmc.spark.cli.Require;

/**
 * A validated {@code bn} run: which network, evidence and query variables, which method, and how much sampling.
 *
 * @param networkPath the BIF file as the user named it
 * @param query       indices of the query variables, in the user's order
 * @param samples     samples in all (likelihood weighting, rejection)
 * @param blockSize   samples per block: a block is the unit of work and owns its random stream
 * @param chains      Gibbs chains (at least 2 with Gibbs, for R-hat; the other methods use none)
 * @param warmup      Gibbs warm-up sweeps per chain (discarded)
 * @param draws       Gibbs kept sweeps per chain
 * @param roundSize   Gibbs sweeps per chain per round (one Spark job and one progress line per round)
 * @param partitions  Spark partitions for blocks or chains (does not change any result)
 * @param maxRhat     Gibbs: an indicator with R-hat at or above this counts as not converged
 * @param minEss      Gibbs: …or with bulk or tail ESS below this
 */
public record BnConfig(String networkPath, BayesNet net, Evidence evidence, int[] query, BnMethod method,
        ExactMode exact, long samples, long blockSize, int chains, int warmup, int draws, int roundSize, long seed,
        int partitions, double maxRhat, double minEss) {
    /**
     * Gibbs keeps every kept draw of every query state on the driver (R-hat and ESS rank all of them): at most this
     * many chains × draws × query states, 16 million, about 128 MB with the diagnostics' working copies.
     */
    public static final long GIBBS_DRIVER_DRAWS = 16_000_000L;

    public BnConfig {
        Require.atLeast(samples, 1, "--samples");
        Require.atLeast(blockSize, 1, "--block-size");
        Require.atLeast(draws, 1, "--draws");
        Require.atLeast(roundSize, 1, "--round-size");
        JobCommand.checkPartitions(partitions);
        evidence.requireNotRuledOut(net); // the rest of zero-probability evidence: exact inference or the samplers
        Require.atLeast(chains, 1, "--chains");
        Require.atLeast(warmup, 0, "--warmup");
        Require.above(maxRhat, 1, "--max-rhat");
        Require.atLeast(minEss, 0, "--min-ess");
        if (method == BnMethod.GIBBS) {
            Require.atLeast(chains, 2, "--chains", "for R-hat");
            long states = 0;
            for (int v : query) {
                states += net.cardinality(v);
            }
            if ((double) chains * draws * states > GIBBS_DRIVER_DRAWS) {
                throw new InvalidInputException(String.format(Locale.ROOT, "--method gibbs keeps every kept draw on "
                    + "the driver for R-hat and ESS: %,d chains × %,d draws × %,d query states = %,.0f, above the limit"
                    + " %,d; lower --draws or --chains, or query fewer variables (--samples counts lw and rejection "
                    + "samples, which are summed on the executors and have no such limit)", chains, draws, states,
                    (double) chains * draws * states, GIBBS_DRIVER_DRAWS));
            }
        }
        if (method == BnMethod.EXACT && exact == ExactMode.NEVER) {
            throw new InvalidInputException("--method exact contradicts --exact=never");
        }
    }

    /** Warm-up rounds: the warm-up sweeps cut into rounds of {@code roundSize} (the last may be shorter). */
    public int warmupRounds() {
        return rounds(warmup);
    }

    /** Sampling rounds: the kept sweeps cut into rounds of {@code roundSize} (the last may be shorter). */
    public int samplingRounds() {
        return rounds(draws);
    }

    /** Rounds of {@code roundSize} for {@code sweeps}, in long arithmetic: a round size near 2^31 is one round. */
    private int rounds(int sweeps) {
        return (int) ((sweeps + (long) roundSize - 1) / roundSize);
    }

    /** The evidence as "VAR=STATE,…" (empty for none). */
    public String evidenceText() {
        return evidence.describe(net);
    }
}
