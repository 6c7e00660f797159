package org.sparkmc.core.rjmcmc;

import org.sparkmc.core.random.Rng;

/**
 * Richardson &amp; Green's (1997, §3.4) birth of a component into a k-component mixture: the new component's
 * (w*, μ*, σ²*) is the auxiliary u, and the old weights are rescaled by (1 − w*). On the free coordinates — the first
 * k − 1 old weights (the k-th is 1 minus their sum) — x = (w_1..w_{k−1}), u = (w*, μ*, σ²*) ↦
 * x' = (w_1(1 − w*), …, w_{k−1}(1 − w*), w*, μ*, σ²*), so |det J| = (1 − w*)^{k−1}. (Lebesgue measure on the simplex
 * is the same whichever k − 1 weights are taken as free, so this is the Jacobian whatever the component order.)
 */
record BirthBijection(int k) implements Bijection {

    BirthBijection {
        if (k < 1) {
            throw new IllegalArgumentException("k must be ≥ 1, is " + k);
        }
    }

    @Override
    public String name() {
        return "mixture birth (k=" + k + ")";
    }

    @Override
    public int xDimension() {
        return k - 1;
    }

    @Override
    public int uDimension() {
        return 3;
    }

    @Override
    public int xPrimeDimension() {
        return k + 2;
    }

    @Override
    public int uPrimeDimension() {
        return 0;
    }

    @Override
    public double[] forward(double[] a) {
        double[] b = a.clone();
        double wNew = a[k - 1];
        for (int j = 0; j < k - 1; j++) {
            b[j] = a[j] * (1 - wNew);
        }
        return b;
    }

    @Override
    public double[] inverse(double[] b) {
        double[] a = b.clone();
        double wNew = b[k - 1];
        for (int j = 0; j < k - 1; j++) {
            a[j] = b[j] / (1 - wNew);
        }
        return a;
    }

    @Override
    public double logAbsDetJacobian(double[] a) {
        return (k - 1) * Math.log1p(-a[k - 1]);
    }

    @Override
    public double[] randomDomainPoint(Rng rng) {
        double[] a = new double[k + 2];
        // Old weights: a point of the simplex's interior (k − 1 free coordinates), then w*, μ*, σ²*.
        double[] e = new double[k];
        double sum = 0;
        for (int j = 0; j < k; j++) {
            e[j] = 0.1 - Math.log(1 - rng.uniform());
            sum += e[j];
        }
        for (int j = 0; j < k - 1; j++) {
            a[j] = e[j] / sum;
        }
        a[k - 1] = 0.05 + 0.9 * rng.uniform();
        a[k] = 3 * rng.normal();
        a[k + 1] = 0.2 + 3.8 * rng.uniform();
        return a;
    }
}
