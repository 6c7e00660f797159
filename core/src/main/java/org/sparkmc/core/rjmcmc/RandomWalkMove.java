package org.sparkmc.core.rjmcmc;

import java.util.List;
import org.sparkmc.core.random.Rng;

/**
 * Within-model random-walk Metropolis on every coordinate after the model index: x' = x + s·z, z ~ N(0, I). As a
 * reversible pair it is h(x, u) = (x + u, −u) with u = s·z, whose Jacobian has |det| = 1 and whose auxiliary density
 * is symmetric, so the correction is zero.
 */
public final class RandomWalkMove extends MetropolisMove {
    private static final long serialVersionUID = 1L;

    private final String label;
    private final double scale;

    public RandomWalkMove(String label, double scale) {
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("random-walk scale must be positive and finite, is " + scale);
        }
        this.label = label;
        this.scale = scale;
    }

    @Override
    public List<String> labels() {
        return List.of(label);
    }

    @Override
    public Proposed propose(double[] from, Rng rng) {
        int d = from.length - 1;
        double[] xu = new double[2 * d];
        for (int i = 0; i < d; i++) {
            xu[i] = from[i + 1];
            xu[d + i] = scale * rng.normal();
        }
        double[] xuPrime = new Shift(d, scale).forward(xu);
        double[] to = new double[from.length];
        to[0] = from[0];
        System.arraycopy(xuPrime, 0, to, 1, d);
        return Proposed.symmetric(0, to);
    }

    @Override
    public List<Bijection> bijections() {
        return List.of(new Shift(1, scale), new Shift(2, scale));
    }

    /** h(x, u) = (x + u, −u) on R^d × R^d: the deterministic map behind a symmetric random walk. */
    public record Shift(int dimension, double scale) implements Bijection {

        public Shift {
            if (dimension < 1 || !(scale > 0) || Double.isInfinite(scale)) {
                throw new IllegalArgumentException("a random-walk shift needs dimension ≥ 1 and a positive finite"
                        + " scale, got " + dimension + ", " + scale);
            }
        }

        @Override
        public String name() {
            return "random walk shift (d=" + dimension + ")";
        }

        @Override
        public int xDimension() {
            return dimension;
        }

        @Override
        public int uDimension() {
            return dimension;
        }

        @Override
        public int xPrimeDimension() {
            return dimension;
        }

        @Override
        public int uPrimeDimension() {
            return dimension;
        }

        @Override
        public double[] forward(double[] xu) {
            double[] out = new double[2 * dimension];
            for (int i = 0; i < dimension; i++) {
                out[i] = xu[i] + xu[dimension + i];
                out[dimension + i] = -xu[dimension + i];
            }
            return out;
        }

        @Override
        public double[] inverse(double[] xuPrime) {
            return forward(xuPrime);
        }

        @Override
        public double logAbsDetJacobian(double[] xu) {
            return 0;
        }

        @Override
        public double[] randomDomainPoint(Rng rng) {
            double[] p = new double[2 * dimension];
            for (int i = 0; i < p.length; i++) {
                p[i] = (i < dimension ? 3 : scale) * rng.normal();
            }
            return p;
        }
    }
}
