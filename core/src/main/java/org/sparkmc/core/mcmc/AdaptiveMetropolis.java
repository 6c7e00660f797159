package org.sparkmc.core.mcmc;

import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * Adaptive Metropolis (Haario, Saksman &amp; Tamminen 2001, Bernoulli 7(2)): a Gaussian random walk
 * x' = x + λ·(2.38/√d)·L·z, z ~ N(0, I), whose covariance L·Lᵀ = Σ̂ + εI is the running covariance of the chain's
 * own warm-up positions, scaled by Roberts &amp; Rosenthal's (2001) 2.38²/d, optimal for Gaussian-like targets.
 *
 * <p>For the first {@code t0 = max(100, 10·d)} warm-up iterations L is {@code initialScale}·I. A global factor λ
 * is also adapted by a Robbins–Monro step γ_t(accepted − a*) on log λ, γ_t = t^−0.6 (Andrieu &amp; Thoms 2008,
 * Algorithm 4), toward a* (0.44 in 1-d, 0.234 otherwise); λ restarts at 1 when the empirical covariance takes over.
 * Both Σ̂ and λ change only in warm-up (L is refreshed every 10 warm-up iterations) and are frozen after, so the kept
 * draws come from one fixed random-walk Metropolis kernel. A chain's state is a {@link State}: log λ and the
 * {@link CovarianceAdaptation}.
 */
public final class AdaptiveMetropolis implements Kernel<AdaptiveMetropolis.State> {
    private static final long serialVersionUID = 1L;
    private static final int REFRESH_EVERY = 10;

    private static final StateCodec<State> CODEC = new StateCodec<>() {
        private static final long serialVersionUID = 1L;

        @Override
        public double[] encode(State state) {
            Packed out = Packed.writer().put(state.scale.log);
            state.covariance.write(out);
            return out.toArray();
        }

        @Override
        public State decode(double[] data, int dimension) {
            Packed in = Packed.reader(data);
            State s = new State(new ProposalScale(in.next()), CovarianceAdaptation.read(in, dimension));
            in.end();
            return s;
        }
    };

    /** A chain's adaptive Metropolis state: the global factor log λ and the learnt covariance. */
    public record State(ProposalScale scale, CovarianceAdaptation covariance) implements java.io.Serializable {
    }

    private final double initialScale;
    private final boolean adapt;
    private final double targetAcceptance;

    private AdaptiveMetropolis(double initialScale, boolean adapt, double targetAcceptance) {
        this.initialScale = initialScale;
        this.adapt = adapt;
        this.targetAcceptance = targetAcceptance;
    }

    /**
     * @param initialScale     sd of each coordinate's step before the empirical covariance is used (&gt; 0)
     * @param adapt            adapt during warm-up; false keeps the initial isotropic random walk
     * @param targetAcceptance the rate λ aims at; NaN picks 0.44 in 1-d and 0.234 otherwise
     */
    public static AdaptiveMetropolis of(double initialScale, boolean adapt, double targetAcceptance) {
        if (!(initialScale > 0) || Double.isInfinite(initialScale)) {
            throw new IllegalArgumentException("initial scale must be positive and finite, is " + initialScale);
        }
        return new AdaptiveMetropolis(initialScale, adapt, ScaleAdaptation.checkTarget(targetAcceptance));
    }

    static int warmStart(int d) {
        return Math.max(100, 10 * d);
    }

    @Override
    public State initialState(int dimension) {
        return new State(new ProposalScale(0), CovarianceAdaptation.initial(dimension, initialScale));
    }

    @Override
    public StateCodec<State> codec() {
        return CODEC;
    }

    /** The proposal covariance a chain uses now (λ²·2.38²/d·L·Lᵀ, or λ²·s²·I before the switch), row-major. */
    public static double[] proposalCovariance(ChainState chain) {
        State state = (State) chain.kernelState();
        int d = chain.position().length;
        double factor = Math.exp(state.scale.log) * (usesEmpirical(state, d) ? 2.38 / Math.sqrt(d) : 1);
        return state.covariance.covariance(factor);
    }

    private static boolean usesEmpirical(State state, int d) {
        return state.covariance.count() >= warmStart(d);
    }

    @Override
    public Transition step(Target target, ChainState state, State own, Rng rng, boolean warmup) {
        double[] x = state.position();
        int d = x.length;
        CovarianceAdaptation cov = own.covariance;
        boolean empirical = usesEmpirical(own, d);
        double factor = Math.exp(own.scale.log) * (empirical ? 2.38 / Math.sqrt(d) : 1);
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
            own.scale.log += ScaleAdaptation.logScaleStep(state, accepted, targetAcceptance, d);
            cov.update(state.position());
            double n = cov.count();
            if (n >= warmStart(d) && ((long) n - warmStart(d)) % REFRESH_EVERY == 0) {
                cov.refresh();
                if (!empirical) {
                    own.scale.log = 0;
                }
            }
        }
        return Transition.metropolis(accepted, logAccept);
    }
}
