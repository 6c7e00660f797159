package org.sparkmc.spark.consensus;

import java.util.List;
import org.sparkmc.core.consensus.RowLikelihood;

/**
 * A user's row likelihood for {@code --model class:…} tests, written against the interface alone: the linear model
 * y ~ N(xᵀβ, 1) with the noise sd fixed at 1, so that every shard's sub-posterior and the full posterior are exactly
 * Gaussian and known in closed form. Public, with the constructor the job looks for (the feature names).
 */
public final class UnitNoiseLinearLikelihood implements RowLikelihood {
    private static final long serialVersionUID = 1L;
    private static final double HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

    private final List<String> names;

    public UnitNoiseLinearLikelihood(List<String> featureNames) {
        this.names = featureNames.stream().map(n -> "b_" + n).toList();
    }

    @Override
    public int features() {
        return names.size();
    }

    @Override
    public int dimension() {
        return names.size();
    }

    @Override
    public List<String> parameterNames() {
        return names;
    }

    @Override
    public double logLikelihood(double y, double[] x, int offset, double[] theta) {
        double r = y;
        for (int j = 0; j < theta.length; j++) {
            r -= x[offset + j] * theta[j];
        }
        return -0.5 * r * r;
    }

    @Override
    public double logConstant(double y) {
        return -HALF_LOG_TWO_PI;
    }

    @Override
    public String name() {
        return "unit-noise linear";
    }

    @Override
    public boolean inSupport(double y) {
        return Double.isFinite(y);
    }

    @Override
    public String support() {
        return "a finite number";
    }
}
