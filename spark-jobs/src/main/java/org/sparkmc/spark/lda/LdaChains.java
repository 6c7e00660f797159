package org.sparkmc.spark.lda;

import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.lda.BestOfChains;
import org.sparkmc.spark.cli.Require;

/**
 * The {@code lda} job's several chains ({@code --chains}, {@code --chain-sweeps}): C independent chains from the
 * seeds of {@link BestOfChains#chainSeed}, run in turn for the chain sweeps each, the one of highest training
 * log-likelihood ({@link BestOfChains#score}) going on to the end of the run. One chain is the plain run.
 *
 * @param chains C ≥ 1
 * @param chainSweeps the sweeps each chain runs before the choice (with one chain: 0, unused)
 */
public record LdaChains(int chains, int chainSweeps) {
    /** The most chains taken: each costs its sweeps, so more is a typing error rather than a plan. */
    public static final int MAX_CHAINS = 1000;

    /** The plain run: one chain. */
    public static LdaChains one() {
        return new LdaChains(1, 0);
    }

    /**
     * The checked options for a run of {@code config}: {@code chainSweeps} 0 means all of {@code config.sweeps()}.
     *
     * @param checkpointing whether the run saves checkpoints or resumes ({@code --checkpoint}, {@code --resume})
     * @throws InvalidInputException naming the option and the expected value
     */
    public static LdaChains of(int chains, int chainSweeps, LdaConfig config, boolean checkpointing) {
        Require.inRange(chains, 1, MAX_CHAINS, "--chains");
        Require.inRange(chainSweeps, 0, config.sweeps(), "--chain-sweeps"); // at most --sweeps; 0: all of them
        if (chains == 1) {
            return one();
        }
        int explore = chainSweeps == 0 ? config.sweeps() : chainSweeps;
        if (checkpointing) {
            throw new InvalidInputException("--chains " + chains + " runs its chains in turn and keeps the best, and "
                    + "takes no --checkpoint or --resume; run without them, then, to checkpoint or extend the chosen "
                    + "chain, rerun with --chains 1 --seed <its seed from summary.json's chains.chosen_seed>");
        }
        if (explore % config.syncInterval() != 0) {
            throw new InvalidInputException("--chain-sweeps (" + explore + ") must be a multiple of --sync-interval ("
                    + config.syncInterval() + "): the chains are scored on whole sync steps");
        }
        return new LdaChains(chains, explore);
    }

    /** Whether there is more than one chain. */
    public boolean several() {
        return chains > 1;
    }
}
