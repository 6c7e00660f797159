package org.sparkmc.core.diagnostics;

/**
 * posterior's {@code .ess}: the effective sample size of draws already arranged as chains (split or not,
 * transformed or not), with its intermediate quantities for debugging and tests.
 *
 * <p>With W the mean within-chain variance, var⁺ = W (N−1)/N + var(chain means) and ρ̂_t = 1 − (W − mean acov_t)/var⁺,
 * the lags are summed in pairs (Geyer's initial positive sequence) until a pair sum is not positive, the pairs are
 * made monotone (Geyer's initial monotone sequence), and τ̂ = −1 + 2 Σ_{t<k} ρ̂_t + ρ̂_k with k the last even lag
 * reached; τ̂ is bounded below by 1/log10(MN), capping the ESS of antithetic chains at MN·log10(MN).
 * ESS = MN/τ̂ (Vehtari et al. 2021, section 3.2; Geyer 1992). A NaN ρ̂_t (from variances that overflowed) gives
 * no estimate (NaN), a deliberate departure from posterior, whose loop stops at it and reports τ̂ from the lags
 * before (τ̂ = 2, ESS = MN/2, when it is ρ̂_1). After the summaries' rescaling only a direct call can reach it.
 *
 * @param chains number of chains M
 * @param iterations draws per chain N
 * @param meanVariance W, the mean within-chain variance (n − 1 denominator)
 * @param varPlus var⁺
 * @param maxLag the even lag k where the positive sequence stopped
 * @param tauUncapped τ̂ before the lower bound
 * @param tauBound 1/log10(MN)
 * @param ess the effective sample size
 * @param rho ρ̂ after the monotone step, lags 0 … N−1 (zeros beyond the truncation)
 */
record GeyerEss(int chains, int iterations, double meanVariance, double varPlus, int maxLag, double tauUncapped,
        double tauBound, double ess, double[] rho) {

    /**
     * The ESS of {@code chains}, or NaN as posterior: fewer than 3 draws per chain, non-finite or constant draws; and
     * NaN where an autocorrelation is NaN, as for non-finite draws (posterior stops its sum there).
     */
    static double ess(double[][] chains) {
        return essOf(estimate(chains));
    }

    /**
     * {@link #ess} of chains known to be finite and not constant (posterior's {@code should_return_NA} is false for
     * them), such as normal scores of draws that do not all tie: the same value, without the scan that checks it.
     */
    static double essOfChecked(double[][] chains) {
        return essOf(estimateChecked(chains));
    }

    /**
     * {@link #essOfChecked} of the split chains of the indicator {@code x <= threshold} of {@code draws}, known not
     * to be constant, from counts of the indicator's ones ({@link IndicatorAutocovariance}).
     */
    static double essOfIndicator(double[][] draws, double threshold) {
        IndicatorAutocovariance acov = new IndicatorAutocovariance(draws, threshold);
        return essOf(estimateChecked(acov.chains(), acov.length(), acov));
    }

    private static double essOf(GeyerEss estimate) {
        return estimate == null ? Double.NaN : estimate.ess();
    }

    /** The full estimate, or null where posterior returns NA. */
    static GeyerEss estimate(double[][] x) {
        return Draws.shouldReturnNaN(x) ? null : estimateChecked(x);
    }

    /** {@link #estimate} of chains known to be finite and not constant; null for fewer than 3 draws per chain. */
    private static GeyerEss estimateChecked(double[][] x) {
        return estimateChecked(x.length, x[0].length, new LaggedAutocovariance(x));
    }

    /**
     * The estimate for m chains of n draws from their autocovariances; null for fewer than 3 draws per chain or an
     * autocorrelation that is NaN (variances that overflowed), where posterior's loop would stop.
     */
    private static GeyerEss estimateChecked(int m, int n, ChainAutocovariance acov) {
        if (n < 3) {
            return null;
        }
        double meanVar = acov.at(0) * n / (n - 1);
        double varPlus = meanVar * (n - 1) / n;
        if (m > 1) {
            double[] chainMeans = new double[m];
            for (int c = 0; c < m; c++) {
                chainMeans[c] = acov.mean(c);
            }
            varPlus += Draws.variance(chainMeans);
        }

        // Geyer's initial positive sequence
        double[] rho = new double[n];
        int t = 0;
        double rhoEven = 1.0;
        rho[0] = rhoEven;
        double rhoOdd = 1.0 - (meanVar - acov.at(1)) / varPlus;
        rho[1] = rhoOdd;
        if (Double.isNaN(rhoOdd)) {
            return null;
        }
        while (t < n - 5 && rhoEven + rhoOdd > 0) {
            t += 2;
            rhoEven = 1.0 - (meanVar - acov.at(t)) / varPlus;
            rhoOdd = 1.0 - (meanVar - acov.at(t + 1)) / varPlus;
            if (Double.isNaN(rhoEven + rhoOdd)) {
                return null; // posterior stops here and reports τ̂ from the lags before: a number from no data
            }
            if (rhoEven + rhoOdd >= 0) {
                rho[t] = rhoEven;
                rho[t + 1] = rhoOdd;
            }
        }
        int maxLag = t;
        // the improved estimate adds the last even lag when positive
        if (rhoEven > 0) {
            rho[maxLag] = rhoEven;
        }

        // Geyer's initial monotone sequence
        t = 0;
        while (t <= maxLag - 4) {
            t += 2;
            if (rho[t] + rho[t + 1] > rho[t - 2] + rho[t - 1]) {
                rho[t] = (rho[t - 2] + rho[t - 1]) / 2;
                rho[t + 1] = rho[t];
            }
        }

        double total = (double) m * n;
        // posterior sums rho_hat_t[1:max_t]; in R 1:0 is c(1, 0), i.e. lag 0 alone when max_t is 0
        double sum = 0.0;
        for (int lag = 0; lag < Math.max(maxLag, 1); lag++) {
            sum += rho[lag];
        }
        double tau = -1.0 + 2.0 * sum + rho[maxLag];
        double tauBound = 1.0 / Math.log10(total);
        double ess = total / Math.max(tau, tauBound);
        return new GeyerEss(m, n, meanVar, varPlus, maxLag, tau, tauBound, ess, rho);
    }
}
