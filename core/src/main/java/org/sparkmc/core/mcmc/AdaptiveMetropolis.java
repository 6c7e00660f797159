package org.sparkmc.core.mcmc;

import java.io.Serializable;
import java.util.Arrays;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * Adaptive Metropolis (Haario, Saksman &amp; Tamminen 2001, Bernoulli 7(2)) with Stan's windowed warm-up: a
 * Gaussian random walk x' = x + λ·(2.38/√d)·L·z, z ~ N(0, I), whose covariance L·Lᵀ = Σ̂ + εI is estimated from the
 * chain's own warm-up positions, scaled by Roberts &amp; Rosenthal's (2001) 2.38²/d, optimal for Gaussian-like
 * targets. With {@link #diagonal} only the variances are estimated: a random walk with one step size per
 * coordinate (the {@code rwm} kernel), for posteriors whose coordinates differ in scale by orders of magnitude.
 *
 * <p>Warm-up follows {@link WindowSchedule}: during the initial fast interval (75 iterations by default) the chain
 * climbs from its starting point with L = {@code initialScale}·I and those positions are discarded; each slow
 * window (25, 50, 100, … iterations) estimates Σ̂ from its own positions only, and at its end L becomes the
 * Cholesky factor of Σ̂ + εI (ε = 10⁻⁶·mean variance + 10⁻¹²) and the estimate restarts; the final fast interval
 * keeps L. Learning the covariance from the climb — as this kernel did before over the whole warm-up — left chains
 * of an AR(5) posterior stuck far from the mode. Throughout warm-up a global factor λ follows Robbins–Monro steps
 * γ_t·(accepted − a*) on log λ, γ_t = t^−0.6 (Andrieu &amp; Thoms 2008, Algorithm 4), toward a* (0.44 in 1-d, 0.234
 * otherwise), restarting at λ = 1 (t = 1) with each new L. (Dual averaging, as for NUTS's step size, was tried and
 * left more AR(5) chains climbing at the end of warm-up.)
 *
 * <p>Climb sweeps: windows alone do not bring a chain from a bad start to the posterior in time when the climb is a
 * narrowing valley, as for a regression whose coefficients have posterior sd 0.001 and whose σ must shrink with the
 * residuals (from starts on (−2, 2) the chains still climbed after 1,000 iterations, and stayed stuck with the
 * covariance frozen from their climb). So before the final fast interval every warm-up iteration is followed by one
 * sweep of single-coordinate random-walk Metropolis updates, each coordinate with its own scale adapted toward
 * acceptance 0.44 (adaptive Metropolis-within-Gibbs, Roberts &amp; Rosenthal 2009, J. Comput. Graph. Stat. 18(2)):
 * coordinate moves follow such a valley as a Gibbs sampler does, and the chains arrive within a few hundred
 * iterations. The sweeps cost d log-density evaluations per warm-up iteration; the final fast interval runs the
 * joint walk alone. After warm-up L and λ are frozen and the sweeps stop, so the kept draws come from one fixed
 * random-walk Metropolis kernel.
 */
public final class AdaptiveMetropolis implements Kernel<AdaptiveMetropolis.State> {
    private static final long serialVersionUID = 3L;
    /** The acceptance rate each coordinate's climb-sweep scale aims at (the 1-d optimum). */
    private static final double SWEEP_ACCEPTANCE = 0.44;

    /**
     * A chain's adaptive Metropolis state: log λ, its Robbins–Monro steps, the covariance learnt so far, and the log
     * scales of the warm-up's coordinate sweeps.
     */
    public static final class State implements Serializable {
        private static final long serialVersionUID = 2L;
        final ProposalScale scale;
        final CovarianceAdaptation covariance;
        /** Log sd of each coordinate's climb-sweep step. */
        final double[] sweepLogScale;
        /** Robbins–Monro steps since λ last restarted. */
        double steps;
        /** Whether L is an estimate (else {@code initialScale}·I and no 2.38/√d factor). */
        boolean empirical;

        State(ProposalScale scale, CovarianceAdaptation covariance, double steps, boolean empirical,
                double[] sweepLogScale) {
            this.scale = scale;
            this.covariance = covariance;
            this.steps = steps;
            this.empirical = empirical;
            this.sweepLogScale = sweepLogScale;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof State s && scale.equals(s.scale) && covariance.equals(s.covariance)
                    && Double.compare(steps, s.steps) == 0 && empirical == s.empirical
                    && Arrays.equals(sweepLogScale, s.sweepLogScale);
        }

        @Override
        public int hashCode() {
            return (scale.hashCode() * 31 + covariance.hashCode()) * 31 + Arrays.hashCode(sweepLogScale);
        }
    }

    private final double initialScale;
    private final boolean adapt;
    private final double targetAcceptance;
    private final boolean diagonal;
    private final WindowSchedule windows;
    private final boolean sweeps;
    /**
     * A deliberately wrong kernel (see {@link #adaptingWhileSampling}) when positive: the length of the windows in
     * which it keeps learning L after warm-up. 0 for the real kernel.
     */
    private final int samplingWindow;

    private AdaptiveMetropolis(double initialScale, boolean adapt, double targetAcceptance, boolean diagonal,
            int warmup, boolean sweeps) {
        this(initialScale, adapt, targetAcceptance, diagonal, warmup, sweeps, 0);
    }

    private AdaptiveMetropolis(double initialScale, boolean adapt, double targetAcceptance, boolean diagonal,
            int warmup, boolean sweeps, int samplingWindow) {
        if (!(initialScale > 0) || Double.isInfinite(initialScale)) {
            throw new IllegalArgumentException("initial scale must be positive and finite, is " + initialScale);
        }
        this.initialScale = initialScale;
        this.adapt = adapt;
        this.targetAcceptance = ScaleAdaptation.checkTarget(targetAcceptance);
        this.diagonal = diagonal;
        this.windows = WindowSchedule.of(warmup);
        this.sweeps = sweeps;
        this.samplingWindow = samplingWindow;
    }

    /**
     * A full proposal covariance.
     *
     * @param initialScale     sd of each coordinate's step before the first window's estimate (&gt; 0)
     * @param adapt            adapt during warm-up; false keeps the initial isotropic random walk
     * @param targetAcceptance the rate λ aims at; NaN picks 0.44 in 1-d and 0.234 otherwise
     * @param warmup           the warm-up iterations a chain will run (they place the windows)
     */
    public static AdaptiveMetropolis of(double initialScale, boolean adapt, double targetAcceptance, int warmup) {
        return new AdaptiveMetropolis(initialScale, adapt, targetAcceptance, false, warmup, true);
    }

    /** {@link #of(double, boolean, double, int)} for Stan's default warm-up of 1,000 iterations. */
    public static AdaptiveMetropolis of(double initialScale, boolean adapt, double targetAcceptance) {
        return of(initialScale, adapt, targetAcceptance, KernelSettings.DEFAULT_WARMUP);
    }

    /** One step size per coordinate, λ·(2.38/√d)·σ̂_i, the variances learnt in the same windows. */
    public static AdaptiveMetropolis diagonal(double initialScale, boolean adapt, double targetAcceptance,
            int warmup) {
        return new AdaptiveMetropolis(initialScale, adapt, targetAcceptance, true, warmup, true);
    }

    /**
     * Windows without the climb sweeps, as this kernel was before them: for tests that must see a chain from a bad
     * start fail to converge.
     */
    static AdaptiveMetropolis withoutSweeps(double initialScale, double targetAcceptance, boolean diagonal,
            int warmup) {
        return new AdaptiveMetropolis(initialScale, true, targetAcceptance, diagonal, warmup, false);
    }

    /**
     * A deliberately wrong adaptive Metropolis that does not freeze its proposal after warm-up: while sampling it
     * keeps estimating Σ̂ from its own positions and replaces L every {@code window} iterations by the Cholesky
     * factor of the last window's estimate, as in warm-up's windows. The adaptation does not diminish, so the
     * proposal depends on the chain's recent path and the kept draws do not come from one target-invariant kernel.
     * For tests that must be able to fail.
     */
    static AdaptiveMetropolis adaptingWhileSampling(double initialScale, int warmup, int window) {
        if (window < 2) {
            throw new IllegalArgumentException("a window needs at least 2 positions, has " + window);
        }
        return new AdaptiveMetropolis(initialScale, true, Double.NaN, false, warmup, true, window);
    }

    @Override
    public State initialState(int dimension) {
        double[] sweepLogScale = new double[dimension];
        Arrays.fill(sweepLogScale, Math.log(initialScale));
        return new State(new ProposalScale(0), CovarianceAdaptation.initial(dimension, initialScale, diagonal), 0,
                false, sweepLogScale);
    }

    @Override
    public StateCodec<State> codec() {
        return new StateCodec<>() {
            private static final long serialVersionUID = 1L;

            @Override
            public double[] encode(State state) {
                Packed out = Packed.writer().put(state.scale.log).put(state.steps).put(state.empirical ? 1 : 0)
                        .put(state.sweepLogScale);
                state.covariance.write(out);
                return out.toArray();
            }

            @Override
            public State decode(double[] data, int dimension) {
                Packed in = Packed.reader(data);
                ProposalScale scale = new ProposalScale(in.next());
                double steps = in.next();
                boolean empirical = in.next() != 0;
                double[] sweepLogScale = in.next(dimension);
                State s = new State(scale, CovarianceAdaptation.read(in, dimension, diagonal), steps, empirical,
                        sweepLogScale);
                in.end();
                return s;
            }
        };
    }

    /** The proposal covariance a chain uses now (λ²·2.38²/d·L·Lᵀ, or λ²·s²·I before the first window), row-major. */
    public static double[] proposalCovariance(ChainState chain) {
        State state = (State) chain.kernelState();
        int d = chain.position().length;
        return state.covariance.covariance(factor(state, d));
    }

    private static double factor(State state, int d) {
        return Math.exp(state.scale.log) * (state.empirical ? 2.38 / Math.sqrt(d) : 1);
    }

    @Override
    public Transition step(Target target, ChainState state, State own, Rng rng, boolean warmup) {
        double[] x = state.position();
        int d = x.length;
        CovarianceAdaptation cov = own.covariance;
        double factor = factor(own, d);
        double[] z = new double[d];
        for (int i = 0; i < d; i++) {
            z[i] = rng.normal();
        }
        double[] step = new double[d];
        cov.choleskyTimes(z, step);
        double[] proposed = new double[d];
        for (int i = 0; i < d; i++) {
            proposed[i] = x[i] + factor * step[i];
        }
        double logDensity = target.logDensity(proposed);
        double logAccept = logDensity - state.logDensity();
        boolean accepted = !Double.isNaN(logAccept) && Math.log(rng.uniform()) < logAccept;
        if (accepted) {
            state.moveTo(proposed, logDensity);
        }
        if (warmup && adapt) {
            long iteration = state.warmupIterations();
            adapt(own, state.position(), iteration, accepted, d);
            if (sweeps && windows.beforeFinalInterval(iteration)) {
                sweep(target, state, own.sweepLogScale, rng, iteration);
            }
        } else if (!warmup && samplingWindow > 0) {
            keepLearning(own, state.position());
        }
        return Transition.metropolis(accepted, logAccept);
    }

    /**
     * One climb sweep: each coordinate in turn takes a single-coordinate random-walk Metropolis step of sd
     * exp(log s_i), and log s_i moves by {@link ScaleAdaptation}'s Robbins–Monro step toward acceptance 0.44.
     */
    private static void sweep(Target target, ChainState state, double[] logScale, Rng rng, long iteration) {
        double[] x = state.position().clone();
        double current = state.logDensity();
        for (int i = 0; i < x.length; i++) {
            double old = x[i];
            x[i] = old + Math.exp(logScale[i]) * rng.normal();
            double proposed = target.logDensity(x);
            boolean accepted = Math.log(rng.uniform()) < proposed - current;
            if (accepted) {
                current = proposed;
            } else {
                x[i] = old;
            }
            logScale[i] += ScaleAdaptation.logScaleStep(iteration, accepted, SWEEP_ACCEPTANCE, 1);
        }
        state.moveTo(x, current);
    }

    /**
     * The wrong kernel's sampling iteration: the position joins the estimate (the first window also holds the
     * positions of warm-up's unfinished one), and L changes once it holds a window's positions.
     */
    private void keepLearning(State own, double[] x) {
        own.covariance.update(x);
        if (own.covariance.count() >= samplingWindow) {
            if (own.covariance.refresh()) {
                own.empirical = true;
            }
            own.covariance.restart();
        }
    }

    /** One warm-up iteration's adaptation: λ, then the window's estimate, then a new L at a window's end. */
    private void adapt(State own, double[] x, long iteration, boolean accepted, int d) {
        own.scale.log += ScaleAdaptation.logScaleStep((long) own.steps, accepted, targetAcceptance, d);
        own.steps++;
        if (windows.inSlowWindow(iteration)) {
            own.covariance.update(x);
        }
        if (windows.endsWindow(iteration)) {
            if (own.covariance.refresh()) {
                own.empirical = true;
                own.scale.log = 0;
                own.steps = 0;
            }
            own.covariance.restart();
        }
    }
}
