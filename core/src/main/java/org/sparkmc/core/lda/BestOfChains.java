package org.sparkmc.core.lda;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.random.RandomStreams;

/**
 * Several independent collapsed Gibbs chains of one corpus, of which the one of highest training log-likelihood is
 * kept: a way out of one chain's local optima. Single-token Gibbs moves leave a state in which two planted topics
 * share one learned topic while another is split in two only very slowly (the merged topic's tokens would have to
 * move one by one through states of lower probability), but such a state has a clearly lower log p(w, z): on the
 * {@code generate-lda} small preset (K = 20) 0.04–0.12 nats per token below the chains that found every topic
 * (BENCHMARKS.md, "Planted-topic recovery"), far beyond a chain's sweep-to-sweep fluctuation. So C chains from
 * independent random starts, scored by log p(w, z) per token, choose one without a merge unless all C merged.
 *
 * <p>Chain 0 has the run's root seed, so one chain is the plain run; chain c ≥ 1 has the root seed drawn from the
 * stream ({@value #CHAIN_STREAM}, c) of the run's root seed, so each chain's draws are those of a plain run with that
 * seed. A chain's score is its mean log p(w, z) per token over the last {@value #SCORE_WINDOW} sweeps it ran (one
 * state's fluctuation does not decide); the first of the highest scores wins. The chains can be explored for fewer
 * sweeps than the run, the chosen one then going on to the end ({@link #run}).
 */
public final class BestOfChains {
    /** Stream purpose of the chains' root seeds. */
    public static final String CHAIN_STREAM = "lda-chain";
    /** Sweeps whose log-likelihoods make a chain's score. */
    public static final int SCORE_WINDOW = 10;

    /**
     * One explored chain.
     *
     * @param chain its index, 0 … C−1
     * @param seed its root seed ({@link #chainSeed})
     * @param score its mean log p(w, z) per token over its last {@code sweeps} sweeps
     * @param sweeps how many sweeps the score is the mean of: {@value #SCORE_WINDOW}, or all it ran when fewer
     */
    public record Score(int chain, long seed, double score, int sweeps) {
        /** The score of a chain whose log p(w, z) per token after sweeps 1, 2, … is {@code perToken}. */
        public static Score of(int chain, long seed, double[] perToken) {
            return new Score(chain, seed, BestOfChains.score(perToken), Math.min(SCORE_WINDOW, perToken.length));
        }
    }

    /**
     * The chosen chain, advanced to the end, and every chain's score.
     *
     * @param driver the chosen chain
     * @param chosen its index
     * @param scores every chain's score, in chain order
     */
    public record Result(AdLdaDriver driver, int chosen, List<Score> scores) {
    }

    private BestOfChains() {
    }

    /** The root seed of chain {@code chain} of a run of root seed {@code rootSeed}: the root seed itself for chain 0. */
    public static long chainSeed(long rootSeed, int chain) {
        if (chain < 0) {
            throw new IllegalArgumentException("chain must be ≥ 0, is " + chain);
        }
        return chain == 0 ? rootSeed : new RandomStreams(rootSeed).stream(CHAIN_STREAM, chain).nextLong();
    }

    /**
     * A chain's score: the mean of the last {@value #SCORE_WINDOW} (or all, when fewer) of {@code perToken}, its log
     * p(w, z) per token after sweeps 1, 2, … (the random start not included).
     */
    public static double score(double[] perToken) {
        if (perToken.length == 0) {
            throw new IllegalArgumentException("a chain is scored after at least one sweep");
        }
        int from = Math.max(0, perToken.length - SCORE_WINDOW);
        double sum = 0;
        for (int i = from; i < perToken.length; i++) {
            sum += perToken[i];
        }
        return sum / (perToken.length - from);
    }

    /** The index of the first highest score; a NaN score never wins (unless all are NaN: then 0). */
    public static int best(List<Score> scores) {
        if (scores.isEmpty()) {
            throw new IllegalArgumentException("no chain to choose from");
        }
        int best = 0;
        for (int c = 1; c < scores.size(); c++) {
            if (scores.get(c).score() > scores.get(best).score() || Double.isNaN(scores.get(best).score())) {
                best = c;
            }
        }
        return best;
    }

    /**
     * Runs {@code chains} AD-LDA chains of {@code corpus} in {@code numBlocks} blocks ({@link AdLdaDriver}) for
     * {@code chainSweeps} sweeps each, in turn, keeps the best, and advances it to {@code sweeps}. Holds at most two
     * chains at a time.
     */
    public static Result run(Corpus corpus, int numBlocks, LdaPriors priors, long rootSeed, int chains,
            int chainSweeps, int sweeps) {
        if (chains < 1 || chainSweeps < 1 || chainSweeps > sweeps) {
            throw new IllegalArgumentException("need chains ≥ 1 and 1 ≤ chain sweeps ≤ sweeps, got " + chains
                    + " chains, " + chainSweeps + " chain sweeps, " + sweeps + " sweeps");
        }
        List<Score> scores = new ArrayList<>(chains);
        AdLdaDriver best = null;
        int chosen = -1;
        for (int c = 0; c < chains; c++) {
            long seed = chainSeed(rootSeed, c);
            AdLdaDriver driver = AdLdaDriver.start(corpus, numBlocks, priors, new RandomStreams(seed));
            double[] lastSweeps = new double[Math.min(SCORE_WINDOW, chainSweeps)];
            int from = chainSweeps - lastSweeps.length;
            for (int s = 0; s < chainSweeps; s++) {
                driver.sweep();
                if (s >= from) {
                    lastSweeps[s - from] = driver.logLikelihood() / corpus.numTokens();
                }
            }
            scores.add(Score.of(c, seed, lastSweeps));
            if (best(scores) == c) {
                best = driver;
                chosen = c;
            }
        }
        while (best.sweepsDone() < sweeps) {
            best.sweep();
        }
        return new Result(best, chosen, List.copyOf(scores));
    }
}
