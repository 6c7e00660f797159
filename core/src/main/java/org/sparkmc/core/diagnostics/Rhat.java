package org.sparkmc.core.diagnostics;

/**
 * The potential scale reduction factor R-hat, as R's {@code posterior} defines it (Vehtari, Gelman, Simpson,
 * Carpenter and Bürkner 2021, "Rank-normalization, folding, and localization: An improved R-hat for assessing
 * convergence of MCMC", <i>Bayesian Analysis</i> 16(2)).
 *
 * <p>Basic R-hat of M chains of N draws is {@code sqrt(((N−1)/N · W + B/N) / W)} with W the mean within-chain
 * variance and B = N · var(chain means). {@link #rhat} — the one to use — is the larger of the bulk R-hat (basic
 * R-hat of the rank-normalised split chains) and the tail R-hat (the same for the draws folded around their median,
 * |x − median|). Values near 1 (below 1.01) indicate the chains mix.
 *
 * <p>Returns NaN where posterior returns NA: a NaN draw (or, for the basic R-hat, an infinite one), constant input,
 * fewer than two draws per (split) chain, or a single chain without splitting. For chains of 2 or 3 draws posterior's
 * R code drops a matrix dimension and computes over transposed halves; these classes return NaN there.
 *
 * <p>Draws beyond 2^±200 in magnitude are measured as the summaries measure them ({@link FullParameterSummary#of}):
 * scaled by a power of two, which leaves R-hat alone and keeps their squared deviations finite.
 */
public final class Rhat {
    private Rhat() {
    }

    /** R-hat: the maximum of {@link #bulk} and {@link #tail} (posterior's {@code rhat}). */
    public static double rhat(double[][] draws) {
        return Draws.statisticAtSafeScale(draws, d -> rhat(PooledDraws.of(d)), Draws.INVARIANT);
    }

    static double rhat(PooledDraws pooled) {
        return Math.max(bulk(pooled), tail(pooled));
    }

    /** Bulk R-hat: basic R-hat of the rank-normalised split chains. */
    public static double bulk(double[][] draws) {
        return Draws.statisticAtSafeScale(draws, d -> bulk(PooledDraws.of(d)), Draws.INVARIANT);
    }

    static double bulk(PooledDraws pooled) {
        return ofCheckedChains(pooled.rankNormalizedSplit());
    }

    /** Tail R-hat: basic R-hat of the rank-normalised split chains of |x − median(x)|. */
    public static double tail(double[][] draws) {
        return Draws.statisticAtSafeScale(draws, d -> tail(PooledDraws.of(d)), Draws.INVARIANT);
    }

    static double tail(PooledDraws pooled) {
        return ofCheckedChains(pooled.foldedRankNormalizedSplit());
    }

    /**
     * Basic R-hat of the draws (posterior's {@code rhat_basic}), on split chains when {@code split} is true (the
     * default there) or on the chains as given.
     */
    public static double basic(double[][] draws, boolean split) {
        return Draws.statisticAtSafeScale(draws, d -> ofChains(split ? Draws.split(d) : d), Draws.INVARIANT);
    }

    /**
     * posterior's {@code .rhat}: basic R-hat of chains used as given; NaN for null input, non-finite or constant
     * draws, a single chain or a single draw per chain.
     */
    static double ofChains(double[][] chains) {
        return chains == null || Draws.shouldReturnNaN(chains) ? Double.NaN : ofCheckedChains(chains);
    }

    /**
     * {@link #ofChains} of chains known to be finite and not constant, such as normal scores of draws that do not all
     * tie, without the scan that checks it; NaN for null input, as there.
     */
    static double ofCheckedChains(double[][] chains) {
        if (chains == null) {
            return Double.NaN;
        }
        int m = chains.length;
        int n = chains[0].length;
        if (m < 2 || n < 2) {
            return Double.NaN;
        }
        double[] chainMeans = new double[m];
        double meanWithin = 0.0;
        for (int c = 0; c < m; c++) {
            chainMeans[c] = Draws.mean(chains[c]);
            meanWithin += Draws.variance(chains[c], chainMeans[c]);
        }
        meanWithin /= m;
        double between = n * Draws.variance(chainMeans);
        return Math.sqrt((between / meanWithin + n - 1) / n);
    }
}
