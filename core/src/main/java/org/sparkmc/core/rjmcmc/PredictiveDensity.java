package org.sparkmc.core.rjmcmc;

import org.sparkmc.core.diagnostics.PooledStatistics;

/**
 * The posterior predictive density of a mixture on a grid with pointwise credible bands: at each grid point t the
 * draws of the mixture density f(t) (a label-invariant reported quantity of {@link NormalMixture}) give the predictive
 * density E[f(t) | y] (their mean) and the band between their {@code lower} and {@code upper} quantiles. (The
 * {@code chains} job's report draws it.)
 *
 * @param grid  the points t
 * @param mean  E[f(t) | y] at each point
 * @param lower the lower pointwise quantile of f(t)
 * @param upper the upper pointwise quantile of f(t)
 */
public record PredictiveDensity(double[] grid, double[] mean, double[] lower, double[] upper, double lowerLevel,
        double upperLevel) {

    /**
     * @param densityDraws {@code [grid point][chain][iteration]} draws of f(t)
     */
    public static PredictiveDensity of(double[] grid, double[][][] densityDraws, double lowerLevel, double upperLevel) {
        int g = grid.length;
        double[] mean = new double[g];
        double[] lo = new double[g];
        double[] hi = new double[g];
        for (int i = 0; i < g; i++) {
            mean[i] = PooledStatistics.mean(densityDraws[i]);
            double[] q = PooledStatistics.quantiles(densityDraws[i], lowerLevel, upperLevel);
            lo[i] = q[0];
            hi[i] = q[1];
        }
        return new PredictiveDensity(grid.clone(), mean, lo, hi, lowerLevel, upperLevel);
    }
}
