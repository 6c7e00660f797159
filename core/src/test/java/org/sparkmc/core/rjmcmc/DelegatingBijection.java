package org.sparkmc.core.rjmcmc;

import org.sparkmc.core.random.Rng;

/** Forwards everything to another bijection: tests override a method of it to break that bijection. */
class DelegatingBijection implements Bijection {
    final Bijection inner;

    DelegatingBijection(Bijection inner) {
        this.inner = inner;
    }

    @Override
    public String name() {
        return "broken " + inner.name();
    }

    @Override
    public int xDimension() {
        return inner.xDimension();
    }

    @Override
    public int uDimension() {
        return inner.uDimension();
    }

    @Override
    public int xPrimeDimension() {
        return inner.xPrimeDimension();
    }

    @Override
    public int uPrimeDimension() {
        return inner.uPrimeDimension();
    }

    @Override
    public double[] forward(double[] xu) {
        return inner.forward(xu);
    }

    @Override
    public double[] inverse(double[] xuPrime) {
        return inner.inverse(xuPrime);
    }

    @Override
    public double logAbsDetJacobian(double[] xu) {
        return inner.logAbsDetJacobian(xu);
    }

    @Override
    public double[] randomDomainPoint(Rng rng) {
        return inner.randomDomainPoint(rng);
    }
}
