package org.sparkmc.core.consensus;

import java.io.Serializable;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.KernelSettings;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.model.LaplaceApproximation;
import org.sparkmc.core.model.NumericalLaplace;
import org.sparkmc.core.random.RandomStreams;

/**
 * Runs one shard's chains where its rows are: its {@link ShardTarget}, the target's Laplace approximation
 * ({@link NumericalLaplace}, from θ = 0) for starting points and for the kernels that need one, then {@code chains}
 * chains of warm-up and sampling. Chain c (1-based) of shard s (0-based) is chain {@code s·chains + c} for
 * {@link ChainRound}: its streams, keyed by (chain, round) with round 1 the warm-up and round 2 the sampling, depend
 * only on the root seed, the shard and the chain. Run with S = 1 on every row, it samples the full-data posterior on
 * one machine, the reference consensus is measured against.
 *
 * <p>The draws are positions on the unconstrained scale (what the combiners average), not the reported quantities.
 */
public final class ShardSampler {
    /** The kernels a shard can run: those {@link KernelCatalog} builds for a target with a Laplace approximation. */
    public static final Set<String> KERNELS = Set.of("am", "slice", "laplace-rwm", "rwm", "slice-doubling",
            "independence");

    /** Warm-up iterations by default for {@code independence}: it adapts nothing and leaves its start at once. */
    public static final int INDEPENDENCE_WARMUP = 100;
    /** Warm-up iterations by default for the kernels that adapt. */
    public static final int ADAPTIVE_WARMUP = 1000;

    private ShardSampler() {
    }

    /** The warm-up a chain of {@code kernel} gets unless told otherwise. */
    public static int defaultWarmup(String kernel) {
        return kernel.equals("independence") ? INDEPENDENCE_WARMUP : ADAPTIVE_WARMUP;
    }

    /**
     * How each shard samples.
     *
     * @param kernel     a name in {@link #KERNELS}; all adapt in warm-up except {@code independence}, whose proposal
     *                   is a Student-t (ν = 30) centred at the Laplace mode with scale matrix scale²·H⁻¹
     * @param scale      the kernel's initial scale; NaN for automatic: 1 for the Laplace-shaped kernels
     *                   ({@code laplace-rwm}, {@code independence}), else the geometric mean of the Laplace
     *                   approximation's marginal sds
     * @param chains     chains per shard (≥ 2 for R-hat)
     * @param warmup     warm-up iterations per chain (adaptation on, draws discarded)
     * @param iterations kept iterations per chain
     */
    public record Settings(String kernel, double scale, int chains, int warmup, int iterations)
            implements Serializable {
        public Settings {
            if (!KERNELS.contains(kernel)) {
                throw new InvalidInputException("unknown kernel '" + kernel + "' for consensus: expected one of "
                        + new java.util.TreeSet<>(KERNELS));
            }
            if (!(Double.isNaN(scale) || scale > 0 && !Double.isInfinite(scale))) {
                throw new InvalidInputException("scale must be a positive number, is " + scale);
            }
            if (chains < 2) {
                throw new InvalidInputException("chains must be at least 2 (for R-hat within a shard), is " + chains);
            }
            if (warmup < 0) {
                throw new InvalidInputException("warmup must be ≥ 0, is " + warmup);
            }
            if (iterations < 2) {
                throw new InvalidInputException("iterations must be ≥ 2, is " + iterations);
            }
        }
    }

    /**
     * One shard's outcome.
     *
     * @param draws     [chain][coordinate][iteration] positions, then lp__ and accept_stat__ as the last two rows
     * @param mode      the mode of the shard's log density ({@link ShardSkew} compares the draws' mean with it)
     * @param precision the negative Hessian of the shard's log density at its mode (row-major d × d), the
     *                  consensus average's weight ({@link ConsensusAverage#byPrecisions})
     * @param seconds   wall-clock seconds of the Laplace approximation and the chains
     */
    public record Result(int shard, int rows, double[][][] draws, double[] mode, double[] precision, long accepted,
            long proposed, double seconds) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /**
     * Samples shard {@code shard} of {@code shards} with its rows.
     *
     * @param features  row-major rows × p features, in the shard's canonical order ({@link ShardAssignment})
     * @param responses one per row
     */
    public static Result run(RowLikelihood likelihood, double[] features, double[] responses, double priorSd,
            int shards, int shard, Settings settings, RandomStreams streams) {
        return run(likelihood, features, responses, priorSd, shards, shard, settings, streams, line -> { });
    }

    /**
     * {@link #run} that reports its progress as it goes: one line after the Laplace approximation and one after
     * each chain, with the seconds since the start.
     */
    public static Result run(RowLikelihood likelihood, double[] features, double[] responses, double priorSd,
            int shards, int shard, Settings settings, RandomStreams streams, Consumer<String> progress) {
        long t0 = System.nanoTime();
        if (responses.length == 0) {
            throw new InvalidInputException("shard " + shard + " of " + shards + " has no rows: rows go to shards by "
                    + "a hash of their values, so shards get about n/" + shards + " rows each but not exactly, and "
                    + "with few rows a shard can get none; give fewer shards, so that each gets many rows (consensus "
                    + "Monte Carlo needs each shard's posterior near Gaussian: hundreds of rows, not a few)");
        }
        ShardTarget target = new ShardTarget(likelihood, features, responses, priorSd, shards, shard);
        NumericalLaplace view = NumericalLaplace.of(target, new double[target.dimension()]);
        progress.accept(String.format(Locale.ROOT, "shard %d/%d: %d rows, Laplace approximation in %.1f s", shard,
                shards, responses.length, seconds(t0)));
        // An independence proposal is the Laplace approximation itself: adapting its scale toward a random walk's
        // acceptance rate would only widen it.
        // The kernels with Stan's windowed warm-up lay their windows out over the shard's own warm-up.
        Kernel kernel = KernelCatalog.create(settings.kernel(), new KernelSettings(
                scale(settings, view.laplace()), !settings.kernel().equals("independence"), Double.NaN, 1,
                settings.warmup()), view);
        double[][][] draws = new double[settings.chains()][][];
        long accepted = 0;
        long proposed = 0;
        for (int c = 0; c < settings.chains(); c++) {
            long chain = (long) shard * settings.chains() + c + 1;
            ChainState state = ChainRound.start(chain, view, kernel, streams);
            if (settings.warmup() > 0) {
                state = ChainRound.run(view, kernel, state, 1, settings.warmup(), true, false, streams).state();
            }
            RoundResult kept = ChainRound.run(view, kernel, state, 2, settings.iterations(), false, true, streams);
            draws[c] = kept.draws();
            accepted += kept.accepted();
            proposed += kept.proposed();
            progress.accept(String.format(Locale.ROOT, "shard %d/%d: chain %d/%d done, acceptance %.3f, %.1f s",
                    shard, shards, c + 1, settings.chains(), (double) kept.accepted() / kept.proposed(),
                    seconds(t0)));
        }
        return new Result(shard, responses.length, draws, view.laplace().mode(), view.laplace().precision(),
                accepted, proposed, seconds(t0));
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    private static double scale(Settings settings, LaplaceApproximation laplace) {
        if (!Double.isNaN(settings.scale())) {
            return settings.scale();
        }
        if (settings.kernel().equals("laplace-rwm") || settings.kernel().equals("independence")) {
            return 1;
        }
        double logSum = 0;
        for (double sd : laplace.marginalSd()) {
            logSum += Math.log(sd);
        }
        return Math.exp(logSum / laplace.dimension());
    }
}
