package org.sparkmc.core.testing;

import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.sparkmc.core.model.LaplaceApproximation;
import org.sparkmc.core.model.Matrices;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;

/**
 * A posterior's reference means and sds by self-normalised importance sampling from a multivariate t (ν = 5)
 * centred at its Laplace mode with scale H⁻¹: exact as the number of draws grows, and with its own Monte Carlo
 * error (from the weighted draws) for the tolerances of the tests that compare against it.
 */
public final class ImportanceReference {
    private static final double NU = 5;

    private ImportanceReference() {
    }

    /** [coordinate] → {mean, sd, mcse of the mean} of the target's unconstrained coordinates. */
    public static double[][] of(LaplaceApproximation.Source target, int draws, long seed) {
        LaplaceApproximation laplace = target.laplace();
        int d = laplace.dimension();
        Rng rng = new RandomStreams(seed).rng("is-reference");
        double[][] x = new double[draws][];
        double[] logw = new double[draws];
        double max = Double.NEGATIVE_INFINITY;
        double[] z = new double[d];
        double[] step = new double[d];
        for (int i = 0; i < draws; i++) {
            double g = AhrensDieterMarsagliaTsangGammaSampler.of(rng.provider(), NU / 2, 2).sample();
            double r = Math.sqrt(NU / g);
            double q = 0;
            for (int j = 0; j < d; j++) {
                z[j] = rng.normal() * r;
                q += z[j] * z[j];
            }
            Matrices.lowerTimes(laplace.choleskyCov(), d, z, step);
            double[] w = new double[d];
            for (int j = 0; j < d; j++) {
                w[j] = laplace.mode()[j] + step[j];
            }
            x[i] = w;
            logw[i] = target.logDensity(w) + 0.5 * (NU + d) * Math.log1p(q / NU);
            max = Math.max(max, logw[i]);
        }
        double total = 0;
        double[] weight = new double[draws];
        for (int i = 0; i < draws; i++) {
            weight[i] = Math.exp(logw[i] - max);
            total += weight[i];
        }
        double[][] out = new double[d][3];
        for (int j = 0; j < d; j++) {
            double mean = 0;
            for (int i = 0; i < draws; i++) {
                mean += weight[i] * x[i][j];
            }
            mean /= total;
            double var = 0;
            double mcse2 = 0;
            for (int i = 0; i < draws; i++) {
                double dev = x[i][j] - mean;
                var += weight[i] * dev * dev;
                mcse2 += weight[i] * weight[i] * dev * dev;
            }
            out[j] = new double[] {mean, Math.sqrt(var / total), Math.sqrt(mcse2) / total};
        }
        return out;
    }
}
