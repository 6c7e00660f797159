package org.sparkmc.core.mcmc;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.UserClasses;
import org.sparkmc.core.model.FullConditionals;
import org.sparkmc.core.model.LaplaceApproximation;
import org.sparkmc.core.model.MarkovRandomField;
import org.sparkmc.core.model.RunningMeans;
import org.sparkmc.core.model.Target;

/**
 * Builds a {@link Kernel} from its name in a job's configuration.
 * <ul>
 * <li>{@code rwm}: random-walk Metropolis, Gaussian proposal of sd {@code scale} per coordinate; with adaptation
 * each coordinate's step is learnt from its variance in Stan's warm-up windows and a global factor toward the target
 * acceptance ({@link AdaptiveMetropolis#diagonal}); without, a fixed isotropic walk ({@link MetropolisHastings}).</li>
 * <li>{@code am}: adaptive Metropolis with a full proposal covariance learnt in Stan's warm-up windows
 * ({@link AdaptiveMetropolis}).</li>
 * <li>{@code independence}: Metropolis–Hastings with an {@link IndependenceProposal} from the target's Laplace
 * approximation (targets that provide one): multivariate Student-t with {@value #INDEPENDENCE_NU} degrees of freedom,
 * centred at the mode, scale matrix scale²·H⁻¹.</li>
 * <li>{@code laplace-rwm}: the lectures' proposal N(x, scale²·2.38²/d·H⁻¹) from the target's Laplace approximation
 * ({@link MultivariateNormalRandomWalk}).</li>
 * <li>{@code slice}, {@code slice-doubling}: coordinate-wise slice sampling with stepping-out or doubling, initial
 * width {@code scale} ({@link SliceSampler}).</li>
 * <li>{@code nuts}: the No-U-Turn sampler as Stan runs it, with Stan's windowed warm-up of the step size and a
 * diagonal metric ({@link Nuts}); needs a target with a gradient ({@link org.sparkmc.core.model.GradientTarget}).
 * Scale unused; target acceptance δ (0.8 by default).</li>
 * <li>{@code gibbs}, {@code gibbs-random}: systematic- or random-scan Gibbs over the target's full conditionals
 * ({@link GibbsSampler}).</li>
 * <li>{@code colour-gibbs}: chromatic parallel Gibbs on a Markov random field with {@code threads} threads
 * ({@link ColourGibbs}).</li>
 * <li>{@code proposal:com.example.MyProposal}: Metropolis–Hastings with a user's {@link Proposal} (public
 * no-argument constructor), which returns its own log Hastings ratio.</li>
 * <li>{@code rjmcmc}: the reversible-jump sweep a trans-dimensional target defines
 * ({@link org.sparkmc.core.rjmcmc.RjmcmcKernel}, with its move counter; scale and adaptation unused).</li>
 * <li>{@code cycle(k1, k2, …)}: each in turn; {@code mixture(w1*k1, w2*k2, …)}: one chosen at random with
 * probabilities ∝ w (weights default to 1) ({@link CycleKernel}, {@link MixtureKernel}).</li>
 * </ul>
 * For a target with {@link RunningMeans} (a posterior mean image), the kernel is observed by a
 * {@link RunningMeanObserver} ({@link ObservedKernel}).
 */
public final class KernelRegistry {
    public static final String PROPOSAL_PREFIX = "proposal:";
    /**
     * Degrees of freedom of the {@code independence} kernel's Student-t proposal: tails heavier than the Laplace
     * approximation's, at a small price where that approximation is exact (a simulated chain on a 20-dimensional
     * Gaussian target accepted 83% of such proposals, against 48% at ν = 4 and 94% at ν = 100).
     */
    public static final double INDEPENDENCE_NU = 30;
    private static final Set<String> NAMES = new TreeSet<>(Set.of("rwm", "am", "independence", "laplace-rwm", "slice",
            "slice-doubling", "gibbs", "gibbs-random", "colour-gibbs", "rjmcmc", "nuts"));

    private KernelRegistry() {
    }

    /**
     * Settings shared by the kernels: initial proposal scale (slice: initial width), warm-up adaptation, target
     * acceptance (NaN = default), threads for parallel kernels, and the warm-up iterations a chain will run (they
     * place the adaptation windows of the kernels with Stan's windowed warm-up).
     */
    public record Settings(double scale, boolean adapt, double targetAcceptance, int threads, int warmup) {
        /** The warm-up length assumed when none is given: Stan's default, 1,000 iterations. */
        public static final int DEFAULT_WARMUP = 1000;

        public Settings(double scale, boolean adapt, double targetAcceptance) {
            this(scale, adapt, targetAcceptance, 1);
        }

        public Settings(double scale, boolean adapt, double targetAcceptance, int threads) {
            this(scale, adapt, targetAcceptance, threads, DEFAULT_WARMUP);
        }
    }

    /** The built-in simple names (composites and {@code proposal:} classes come on top). */
    public static Set<String> names() {
        return NAMES;
    }

    /** A kernel that needs nothing from the target ({@code rwm}, {@code am}, slice, Gibbs, composites of them). */
    public static Kernel<?> create(String name, Settings settings) {
        return create(name, settings, null);
    }

    /** A kernel for a target (needed by {@code independence}, {@code laplace-rwm}; checked for Gibbs kinds). */
    public static Kernel<?> create(String name, Settings settings, Target target) {
        check(settings);
        Kernel<?> kernel = parse(name == null ? "" : name.trim(), settings, target);
        if (target instanceof RunningMeans means) {
            return ObservedKernel.of(kernel, List.of(RunningMeanObserver.of(means.runningMeanSize())));
        }
        return kernel;
    }

    private static void check(Settings settings) {
        if (!(settings.scale() > 0) || Double.isInfinite(settings.scale())) {
            throw new InvalidInputException("kernel scale must be a positive number, is " + settings.scale());
        }
        ScaleAdaptation.checkTarget(settings.targetAcceptance());
        if (settings.threads() < 1) {
            throw new InvalidInputException("threads must be at least 1, is " + settings.threads());
        }
        if (settings.warmup() < 0) {
            throw new InvalidInputException("warmup must be ≥ 0, is " + settings.warmup());
        }
    }

    private static Kernel<?> parse(String name, Settings s, Target target) {
        if (name.startsWith("cycle(") && name.endsWith(")")) {
            List<Kernel<?>> parts = new ArrayList<>();
            for (String part : splitTopLevel(name.substring(6, name.length() - 1))) {
                parts.add(parse(part, s, target));
            }
            return CycleKernel.of(parts);
        }
        if (name.startsWith("mixture(") && name.endsWith(")")) {
            List<Kernel<?>> parts = new ArrayList<>();
            List<String> items = splitTopLevel(name.substring(8, name.length() - 1));
            double[] weights = new double[items.size()];
            for (int i = 0; i < items.size(); i++) {
                String item = items.get(i);
                int star = item.indexOf('*');
                weights[i] = 1;
                if (star > 0 && item.substring(0, star).trim().matches("[0-9.eE+-]+")) {
                    try {
                        weights[i] = Double.parseDouble(item.substring(0, star).trim());
                    } catch (NumberFormatException e) {
                        throw new InvalidInputException("kernel '" + name + "': bad mixture weight in '" + item + "'");
                    }
                    item = item.substring(star + 1).trim();
                }
                if (!(weights[i] > 0) || Double.isInfinite(weights[i])) {
                    throw new InvalidInputException("kernel '" + name + "': mixture weights must be positive");
                }
                parts.add(parse(item, s, target));
            }
            return MixtureKernel.of(parts, weights);
        }
        if (name.startsWith(PROPOSAL_PREFIX)) {
            return new MetropolisHastings(userProposal(name.substring(PROPOSAL_PREFIX.length()).trim()), s.scale(),
                    s.adapt(), s.targetAcceptance());
        }
        switch (name) {
            case "rjmcmc":
                return org.sparkmc.core.rjmcmc.RjmcmcKernel.ofTargetSweep().counted();
            case "rwm":
                return s.adapt() ? AdaptiveMetropolis.diagonal(s.scale(), true, s.targetAcceptance(), s.warmup())
                        : new MetropolisHastings(new GaussianRandomWalk(), s.scale(), false, s.targetAcceptance());
            case "am":
                return AdaptiveMetropolis.of(s.scale(), s.adapt(), s.targetAcceptance(), s.warmup());
            case "independence": {
                LaplaceApproximation laplace = laplace(name, target);
                return new MetropolisHastings(IndependenceProposal.studentT(laplace.mode(), laplace.choleskyCov(),
                        INDEPENDENCE_NU), s.scale(), s.adapt(), s.targetAcceptance());
            }
            case "laplace-rwm": {
                LaplaceApproximation laplace = laplace(name, target);
                int d = laplace.dimension();
                double[] cov = laplace.covariance().clone();
                for (int i = 0; i < cov.length; i++) {
                    cov[i] *= 2.38 * 2.38 / d;
                }
                return new MetropolisHastings(MultivariateNormalRandomWalk.of(cov, d), s.scale(), s.adapt(),
                        s.targetAcceptance());
            }
            case "nuts":
                if (target != null) {
                    Nuts.gradientOf(target);
                }
                return Nuts.of(s.warmup(), s.adapt(), s.targetAcceptance());
            case "slice":
                return SliceSampler.of(SliceSampler.Method.STEPPING_OUT, s.scale(), s.adapt());
            case "slice-doubling":
                return SliceSampler.of(SliceSampler.Method.DOUBLING, s.scale(), s.adapt());
            case "gibbs":
            case "gibbs-random":
                if (target != null && !(target instanceof FullConditionals)) {
                    throw new InvalidInputException("kernel '" + name + "' needs a model with full conditionals; "
                            + target.getClass().getSimpleName() + " has none (use rwm, am or slice)");
                }
                return GibbsSampler.of(name.equals("gibbs") ? GibbsSampler.Scan.SYSTEMATIC : GibbsSampler.Scan.RANDOM);
            case "colour-gibbs":
                if (target != null && !(target instanceof MarkovRandomField)) {
                    throw new InvalidInputException("kernel 'colour-gibbs' needs a Markov random field model; "
                            + target.getClass().getSimpleName() + " is not one");
                }
                return ColourGibbs.of(s.threads());
            default:
                throw new InvalidInputException("unknown kernel '" + name + "': expected one of " + NAMES + ", '"
                        + PROPOSAL_PREFIX + "<class>', 'cycle(k1,k2,…)' or 'mixture(w1*k1,w2*k2,…)'");
        }
    }

    private static LaplaceApproximation laplace(String name, Target target) {
        if (target instanceof LaplaceApproximation.Source source) {
            return source.laplace();
        }
        throw new InvalidInputException("kernel '" + name + "' needs the model's Laplace approximation; "
                + (target == null ? "no model given" : target.getClass().getSimpleName() + " provides none"));
    }

    private static Proposal userProposal(String className) {
        try {
            return UserClasses.load("proposal", className, Proposal.class, "").getConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw new InvalidInputException("proposal class '" + className + "' needs a public no-argument constructor");
        } catch (InvocationTargetException e) {
            throw new InvalidInputException("proposal class '" + className + "' failed to construct: " + e.getCause(),
                    e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new InvalidInputException("proposal class '" + className + "' cannot be instantiated: " + e, e);
        }
    }

    /** Splits "a, b(c, d), e" at top-level commas. */
    static List<String> splitTopLevel(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(s.substring(start, i).trim());
                start = i + 1;
            }
        }
        out.add(s.substring(start).trim());
        if (out.stream().anyMatch(String::isEmpty)) {
            throw new InvalidInputException("kernel list '" + s + "' has an empty entry");
        }
        return out;
    }
}
