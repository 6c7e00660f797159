package org.sparkmc.core.mcmc;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.model.GradientTarget;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * The No-U-Turn sampler (Hoffman &amp; Gelman 2014, JMLR 15) as Stan runs it (Betancourt 2017, "A conceptual
 * introduction to Hamiltonian Monte Carlo", and Stan's {@code base_nuts}): samples a {@link GradientTarget} by
 * Hamiltonian dynamics with a diagonal mass matrix, simulated by the leapfrog integrator.
 *
 * <p>A transition draws a momentum p ~ N(0, M), then doubles a trajectory forwards or backwards in time (direction
 * chosen at random) until the generalised U-turn criterion (Betancourt 2013) fails for the whole trajectory or for
 * any subtree — including the checks across the two halves of every merged subtree that Stan added in 2.23 — or
 * the tree reaches depth 10. The next state is drawn from the trajectory by multinomial sampling: uniformly
 * weighted by e^−H within each new subtree, and with biased progressive sampling (Betancourt 2017, App. A) between
 * the old trajectory and the new subtree. A leapfrog step whose energy exceeds the initial one by more than 1000 is
 * a divergence: the subtree is discarded and the trajectory stops, as in Stan.
 *
 * <p>Warm-up follows Stan's windowed adaptation ({@link WindowSchedule}): the step size is adapted every warm-up
 * iteration by dual averaging ({@link DualAveraging}: δ = 0.8, γ = 0.05, t₀ = 10, κ = 0.75) toward the mean
 * acceptance statistic δ; the inverse mass matrix diag(M⁻¹) is the regularised variance of the positions of each
 * slow window, (n/(n + 5))·σ̂² + 10⁻³·5/(n + 5), after which the step size is re-initialised (Stan's heuristic of
 * doubling or halving ε until one leapfrog step's acceptance crosses 0.8) and dual averaging restarts at
 * μ = log(10ε). After warm-up the step size is e^x̄ and nothing changes any more.
 *
 * <p>Per-step statistics, as Stan names them: {@code stepsize__}, {@code treedepth__}, {@code n_leapfrog__},
 * {@code divergent__}, {@code energy__}; the acceptance statistic is the mean over the trajectory's leapfrog steps
 * of min(1, e^(H₀ − H)).
 */
public final class Nuts implements Kernel<Nuts.State> {
    private static final long serialVersionUID = 1L;
    /** Stan's default maximum tree depth. */
    public static final int MAX_DEPTH = 10;
    /** The energy error that makes a leapfrog step a divergence, as in Stan. */
    public static final double MAX_DELTA_H = 1000;
    /** Stan's default target acceptance statistic δ. */
    public static final double DEFAULT_DELTA = 0.8;
    private static final List<String> STATS = List.of("stepsize__", "treedepth__", "n_leapfrog__", "divergent__",
            "energy__");
    private static final double LOG_08 = Math.log(0.8);

    /** Stan's algorithm, or a deliberately wrong variant of it for tests that must fail. */
    enum Variant {
        /** As Stan: leaves the target invariant. */
        STAN,
        /** The next state is always the newest subtree's proposal (biased toward the trajectory's ends). */
        ALWAYS_NEWEST
    }

    private final double delta;
    private final boolean adapt;
    private final double initialStepSize;
    private final WindowSchedule windows;
    private final Variant variant;

    private Nuts(double delta, boolean adapt, double initialStepSize, WindowSchedule windows, Variant variant) {
        this.delta = delta;
        this.adapt = adapt;
        this.initialStepSize = initialStepSize;
        this.windows = windows;
        this.variant = variant;
    }

    /**
     * @param warmup           the warm-up iterations a chain will run (they set the adaptation windows)
     * @param adapt            adapt the step size and metric during warm-up (false: step size 1, unit metric)
     * @param targetAcceptance δ in (0, 1); NaN for Stan's 0.8
     */
    public static Nuts of(int warmup, boolean adapt, double targetAcceptance) {
        double d = Double.isNaN(targetAcceptance) ? DEFAULT_DELTA : ScaleAdaptation.checkTarget(targetAcceptance);
        return new Nuts(d, adapt, 1, WindowSchedule.of(warmup), Variant.STAN);
    }

    /** A deliberately wrong NUTS, for tests that must be able to fail. */
    static Nuts broken(Variant variant, int warmup) {
        return new Nuts(DEFAULT_DELTA, true, 1, WindowSchedule.of(warmup), variant);
    }

    /** The target as a {@link GradientTarget}, or a refusal that says what is missing. */
    public static GradientTarget gradientOf(Target target) {
        if (target instanceof GradientTarget g) {
            return g;
        }
        throw new InvalidInputException("kernel 'nuts' needs the gradient of the log density; model "
                + (target == null ? "(none)" : target.getClass().getName()) + " provides none (a class: model "
                + "implements " + GradientTarget.class.getName() + "); use a gradient-free kernel such as am or slice");
    }

    /** A chain's NUTS state: step size, dual averaging, the diagonal inverse metric and its window's estimate. */
    public static final class State implements Serializable {
        private static final long serialVersionUID = 1L;
        double stepSize;
        final DualAveraging dual;
        final double[] inverseMetric;
        double count;
        final double[] mean;
        final double[] m2;
        /** Whether the initial step size heuristic has run. */
        boolean started;
        /** Whether warm-up is over (the step size is e^x̄ and frozen). */
        boolean frozen;
        private transient NutsTrajectory.Workspace work;

        State(double stepSize, DualAveraging dual, double[] inverseMetric, double count, double[] mean, double[] m2,
                boolean started, boolean frozen) {
            this.stepSize = stepSize;
            this.dual = dual;
            this.inverseMetric = inverseMetric;
            this.count = count;
            this.mean = mean;
            this.m2 = m2;
            this.started = started;
            this.frozen = frozen;
        }

        /** The nominal step size ε. */
        public double stepSize() {
            return stepSize;
        }

        /** diag(M⁻¹), the inverse metric (a copy). */
        public double[] inverseMetric() {
            return inverseMetric.clone();
        }

        NutsTrajectory.Workspace work(int d) {
            if (work == null || work.d != d) {
                work = new NutsTrajectory.Workspace(d);
            }
            return work;
        }

        /** Adds a position to the window's variance estimate (Welford). */
        void addToWindow(double[] x) {
            count++;
            for (int i = 0; i < x.length; i++) {
                double deltaBefore = x[i] - mean[i];
                mean[i] += deltaBefore / count;
                m2[i] += deltaBefore * (x[i] - mean[i]);
            }
        }

        /** Stan's regularised window variance becomes the inverse metric; the estimate restarts. */
        void endWindow() {
            double n = count;
            for (int i = 0; i < inverseMetric.length; i++) {
                double variance = m2[i] / (n - 1);
                inverseMetric[i] = (n / (n + 5)) * variance + 1e-3 * (5 / (n + 5));
            }
            count = 0;
            Arrays.fill(mean, 0);
            Arrays.fill(m2, 0);
        }
    }

    private static final StateCodec<State> CODEC = new StateCodec<>() {
        private static final long serialVersionUID = 1L;

        @Override
        public double[] encode(State s) {
            Packed out = Packed.writer().put(s.stepSize);
            s.dual.write(out);
            return out.put(s.inverseMetric).put(s.count).put(s.mean).put(s.m2).put(s.started ? 1 : 0)
                    .put(s.frozen ? 1 : 0).toArray();
        }

        @Override
        public State decode(double[] data, int d) {
            Packed in = Packed.reader(data);
            State s = new State(in.next(), DualAveraging.read(in), in.next(d), in.next(), in.next(d), in.next(d),
                    in.next() != 0, in.next() != 0);
            in.end();
            return s;
        }
    };

    @Override
    public State initialState(int dimension) {
        double[] unit = new double[dimension];
        Arrays.fill(unit, 1);
        return new State(initialStepSize, new DualAveraging(Math.log(10 * initialStepSize), 0, 0, 0), unit, 0,
                new double[dimension], new double[dimension], false, false);
    }

    @Override
    public StateCodec<State> codec() {
        return CODEC;
    }

    @Override
    public List<String> statNames() {
        return STATS;
    }

    @Override
    public Transition step(Target target, ChainState chain, State state, Rng rng, boolean warmup) {
        GradientTarget g = gradientOf(target);
        NutsTrajectory.Workspace w = state.work(chain.position().length);
        w.inverseMetric = state.inverseMetric;
        if (adapt && !state.started) {
            state.stepSize = initialStepSize(g, chain.position(), state.stepSize, w, rng);
            state.started = true;
        }
        if (!warmup && adapt && !state.frozen) {
            if (state.dual.counter > 0) {
                state.stepSize = state.dual.finalStepSize();
            }
            state.frozen = true;
        }
        double epsilon = state.stepSize;
        boolean moved = NutsTrajectory.transition(g, chain.position(), epsilon, w, rng,
                variant == Variant.ALWAYS_NEWEST);
        double accept = w.sumMetroProb / w.leapfrogs;
        chain.moveTo(w.sample.q, w.sample.logDensity);
        double[] stats = {epsilon, w.depth, w.leapfrogs, w.divergent ? 1 : 0, w.energy(w.sample)};
        if (warmup && adapt) {
            adaptAfter(g, chain, state, accept, w, rng);
        }
        return Transition.of(moved, accept, stats);
    }

    /** Stan's {@code adapt_diag_e_nuts}: dual averaging every warm-up step, the metric at each window's end. */
    private void adaptAfter(GradientTarget g, ChainState chain, State state, double accept,
            NutsTrajectory.Workspace w, Rng rng) {
        state.stepSize = state.dual.learn(accept, delta);
        long i = chain.warmupIterations();
        if (windows.inSlowWindow(i)) {
            state.addToWindow(chain.position());
        }
        if (windows.endsWindow(i)) {
            state.endWindow();
            state.stepSize = initialStepSize(g, chain.position(), state.stepSize, w, rng);
            state.dual.restart(state.stepSize);
        }
    }

    /**
     * Stan's {@code init_stepsize}: from ε, doubles (or halves) it until a single leapfrog step from x with a fresh
     * momentum has acceptance e^(H₀ − H) below (or above) 0.8.
     */
    private static double initialStepSize(GradientTarget g, double[] x, double epsilon, NutsTrajectory.Workspace w,
            Rng rng) {
        if (epsilon == 0 || epsilon > 1e7 || Double.isNaN(epsilon)) {
            return epsilon;
        }
        double eps = epsilon;
        double deltaH = probe(g, x, eps, w, rng);
        int direction = deltaH > LOG_08 ? 1 : -1;
        while (true) {
            deltaH = probe(g, x, eps, w, rng);
            if ((direction == 1 && !(deltaH > LOG_08)) || (direction == -1 && !(deltaH < LOG_08))) {
                return eps;
            }
            eps = direction == 1 ? 2 * eps : 0.5 * eps;
            if (eps > 1e7) {
                throw new InvalidInputException("NUTS: the step size grew past 1e7 while initialising: the posterior "
                        + "is probably improper (a flat direction)");
            }
            if (eps == 0) {
                throw new InvalidInputException("NUTS: no step size > 0 keeps one leapfrog step accurate: the model's "
                        + "log density or its gradient is probably wrong or not finite at the starting point");
            }
        }
    }

    /** H₀ − H after one leapfrog step of size ε from x with a fresh momentum (NaN energy counts as +∞). */
    private static double probe(GradientTarget g, double[] x, double eps, NutsTrajectory.Workspace w, Rng rng) {
        w.start(g, x, rng);
        double h0 = w.energy(w.z);
        double h = w.leapfrog(g, w.z, eps);
        return h0 - (Double.isNaN(h) ? Double.POSITIVE_INFINITY : h);
    }
}
