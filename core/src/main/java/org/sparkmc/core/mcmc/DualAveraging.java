package org.sparkmc.core.mcmc;

import java.io.Serializable;

/**
 * Nesterov's dual averaging of a log step size toward a target acceptance statistic δ (Hoffman &amp; Gelman 2014,
 * §3.2; Stan's {@code stepsize_adaptation}): after each warm-up transition with statistic a,
 * H̄ ← (1 − η)H̄ + η(δ − a) with η = 1/(t + t₀), x = μ − √t·H̄/γ, x̄ ← (1 − t^−κ)x̄ + t^−κ·x; the step size is e^x
 * during warm-up and e^x̄ after. Stan's constants: γ = 0.05, t₀ = 10, κ = 0.75; μ = log(10·ε₀). Mutable, owned by
 * one chain.
 */
final class DualAveraging implements Serializable {
    private static final long serialVersionUID = 1L;
    static final double GAMMA = 0.05;
    static final double T0 = 10;
    static final double KAPPA = 0.75;

    double mu;
    double counter;
    double sBar;
    double xBar;

    DualAveraging(double mu, double counter, double sBar, double xBar) {
        this.mu = mu;
        this.counter = counter;
        this.sBar = sBar;
        this.xBar = xBar;
    }

    /** Starts over around μ = log(10·ε) (Stan, after each metric update). */
    void restart(double stepSize) {
        mu = Math.log(10 * stepSize);
        counter = 0;
        sBar = 0;
        xBar = 0;
    }

    /** The next step size after a transition with acceptance statistic {@code accept} (capped at 1). */
    double learn(double accept, double delta) {
        counter++;
        double a = Math.min(1, accept);
        double eta = 1 / (counter + T0);
        sBar = (1 - eta) * sBar + eta * (delta - a);
        double x = mu - sBar * Math.sqrt(counter) / GAMMA;
        double xEta = Math.pow(counter, -KAPPA);
        xBar = (1 - xEta) * xBar + xEta * x;
        return Math.exp(x);
    }

    /** The step size kept after warm-up: e^x̄. */
    double finalStepSize() {
        return Math.exp(xBar);
    }

    void write(Packed out) {
        out.put(mu).put(counter).put(sBar).put(xBar);
    }

    static DualAveraging read(Packed in) {
        return new DualAveraging(in.next(), in.next(), in.next(), in.next());
    }
}
