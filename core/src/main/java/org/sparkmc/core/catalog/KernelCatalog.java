package org.sparkmc.core.catalog;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.sparkmc.core.DecimalNumbers;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.UserClasses;
import org.sparkmc.core.mcmc.AdaptiveMetropolis;
import org.sparkmc.core.mcmc.ColourGibbs;
import org.sparkmc.core.mcmc.CycleKernel;
import org.sparkmc.core.mcmc.GaussianRandomWalk;
import org.sparkmc.core.mcmc.GibbsSampler;
import org.sparkmc.core.mcmc.IndependenceProposal;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.KernelSettings;
import org.sparkmc.core.mcmc.MetropolisHastings;
import org.sparkmc.core.mcmc.MixtureKernel;
import org.sparkmc.core.mcmc.MultivariateNormalRandomWalk;
import org.sparkmc.core.mcmc.Nuts;
import org.sparkmc.core.mcmc.ObservedKernel;
import org.sparkmc.core.mcmc.Proposal;
import org.sparkmc.core.mcmc.RunningMeanObserver;
import org.sparkmc.core.mcmc.SliceSampler;
import org.sparkmc.core.model.DiscreteStates;
import org.sparkmc.core.model.FullConditionals;
import org.sparkmc.core.model.LaplaceApproximation;
import org.sparkmc.core.model.MarkovRandomField;
import org.sparkmc.core.model.RunningMeans;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.rjmcmc.RjmcmcKernel;
import org.sparkmc.core.rjmcmc.TransDimensionalTarget;

/**
 * The kernels a job's {@code --kernel} names, and how to build one from its name. The built-in names, each with
 * a one-line description, are {@link #CATALOG}; composites and user classes are parsed on top of them:
 * <ul>
 * <li>a built-in name from {@link #CATALOG}: {@code rwm} ({@link AdaptiveMetropolis#diagonal}, or a fixed
 * {@link MetropolisHastings} walk without adaptation), {@code am} ({@link AdaptiveMetropolis}), {@code independence}
 * (an {@link IndependenceProposal}: Student-t with {@value #INDEPENDENCE_NU} degrees of freedom centred at the
 * Laplace mode, scale matrix scale²·H⁻¹), {@code laplace-rwm} ({@link MultivariateNormalRandomWalk},
 * N(x, scale²·2.38²/d·H⁻¹)), the slice samplers ({@link SliceSampler}), {@link Nuts} (needs a
 * {@link org.sparkmc.core.model.GradientTarget}; scale unused), the Gibbs kinds ({@link GibbsSampler},
 * {@link ColourGibbs}) and {@link RjmcmcKernel}'s sweep with its move counter;</li>
 * <li>{@code proposal:com.example.MyProposal}: Metropolis–Hastings with a user's {@link Proposal} (public
 * no-argument constructor), which returns its own log Hastings ratio.</li>
 * <li>{@code class:com.example.MyKernel}: a user's {@link Kernel}, built by a public constructor taking
 * {@link KernelSettings}, else a public static {@code of(KernelSettings)}, else a public no-argument
 * constructor.</li>
 * <li>{@code cycle(k1, k2, …)}: each in turn; {@code mixture(w1*k1, w2*k2, …)}: one chosen at random with
 * probabilities ∝ w (weights default to 1) ({@link CycleKernel}, {@link MixtureKernel}).</li>
 * </ul>
 * For a target with {@link RunningMeans} (a posterior mean image), the kernel is observed by a
 * {@link RunningMeanObserver} ({@link ObservedKernel}).
 */
public final class KernelCatalog {
    public static final String PROPOSAL_PREFIX = "proposal:";
    /** The prefix of a user's kernel class: {@code class:com.example.MyKernel}. */
    public static final String CLASS_PREFIX = "class:";
    /**
     * Degrees of freedom of the {@code independence} kernel's Student-t proposal: tails heavier than the Laplace
     * approximation's, at a small price where that approximation is exact (a simulated chain on a 20-dimensional
     * Gaussian target accepted 83% of such proposals, against 48% at ν = 4 and 94% at ν = 100).
     */
    public static final double INDEPENDENCE_NU = 30;

    /** Builds a built-in kernel from the checked settings and the target (null when none is known yet). */
    @FunctionalInterface
    public interface Factory {
        Kernel<?> create(KernelSettings settings, Target target);
    }

    /** The built-in kernels, by name. */
    public static final Catalog<Factory> CATALOG = Catalog.of(
            new CatalogEntry<>("am", "adaptive Metropolis: full proposal covariance learnt in Stan's warm-up windows",
                    (s, t) -> AdaptiveMetropolis.of(s.scale(), s.adapt(), s.targetAcceptance(), s.warmup())),
            new CatalogEntry<>("colour-gibbs", "parallel Gibbs for Markov random fields by graph colouring, "
                    + "--threads N, the same draws for any N", KernelCatalog::colourGibbs),
            new CatalogEntry<>("gibbs", "systematic-scan Gibbs over the model's full conditionals",
                    (s, t) -> gibbs("gibbs", GibbsSampler.Scan.SYSTEMATIC, t)),
            new CatalogEntry<>("gibbs-random", "random-scan Gibbs over the model's full conditionals",
                    (s, t) -> gibbs("gibbs-random", GibbsSampler.Scan.RANDOM, t)),
            new CatalogEntry<>("independence", "Metropolis-Hastings with a Student-t proposal (30 degrees of "
                    + "freedom) from the model's Laplace approximation", KernelCatalog::independence),
            new CatalogEntry<>("laplace-rwm", "random walk N(x, 2.38²/d·H⁻¹) from the model's Laplace "
                    + "approximation", KernelCatalog::laplaceRwm),
            new CatalogEntry<>("nuts", "the No-U-Turn sampler as Stan runs it, for models with a gradient",
                    KernelCatalog::nuts),
            new CatalogEntry<>("rjmcmc", "the reversible-jump sweep of a trans-dimensional model",
                    KernelCatalog::rjmcmc),
            new CatalogEntry<>("rwm", "random-walk Metropolis, one step size per coordinate learnt in warm-up "
                    + "(with --no-adapt a fixed walk of sd --scale)", KernelCatalog::rwm),
            new CatalogEntry<>("slice", "coordinate-wise slice sampling with stepping out, initial width --scale",
                    (s, t) -> SliceSampler.of(SliceSampler.Method.STEPPING_OUT, s.scale(), s.adapt())),
            new CatalogEntry<>("slice-doubling", "coordinate-wise slice sampling with doubling, initial width "
                    + "--scale", (s, t) -> SliceSampler.of(SliceSampler.Method.DOUBLING, s.scale(), s.adapt())));

    /**
     * The built-in kernels that propose continuous moves on a position of fixed length, which cannot move a
     * {@link DiscreteStates} target's discrete coordinates nor follow a {@link TransDimensionalTarget}.
     */
    private static final Set<String> CONTINUOUS = Set.of("am", "independence", "laplace-rwm", "nuts", "rwm", "slice",
            "slice-doubling");

    private KernelCatalog() {
    }

    /** The built-in simple names (composites, {@code proposal:} and {@code class:} come on top). */
    public static Set<String> names() {
        return CATALOG.names();
    }

    /** A kernel that needs nothing from the target ({@code rwm}, {@code am}, slice, Gibbs, composites of them). */
    public static Kernel<?> create(String name, KernelSettings settings) {
        return create(name, settings, null);
    }

    /** A kernel for a target (needed by {@code independence}, {@code laplace-rwm}; checked for Gibbs kinds). */
    public static Kernel<?> create(String name, KernelSettings settings, Target target) {
        settings.checked();
        Kernel<?> kernel = parse(name == null ? "" : name.trim(), settings, target);
        if (target instanceof RunningMeans means) {
            return ObservedKernel.of(kernel, List.of(RunningMeanObserver.of(means.runningMeanSize())));
        }
        return kernel;
    }

    private static Kernel<?> parse(String name, KernelSettings s, Target target) {
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
                String weight = star > 0 ? item.substring(0, star).trim() : "";
                if (weight.matches("[0-9.eE+-]+")) {
                    try {
                        weights[i] = DecimalNumbers.parse(weight);
                    } catch (NumberFormatException e) {
                        throw new InvalidInputException("kernel '" + name + "': bad mixture weight in '" + item + "'");
                    }
                    item = item.substring(star + 1).trim();
                }
                if (!(weights[i] > 0) || Double.isInfinite(weights[i])) { // 1e400 is read as Infinity
                    throw new InvalidInputException("kernel '" + name + "': mixture weight '" + weight + "' is "
                            + weights[i] + "; weights must be finite numbers > 0");
                }
                parts.add(parse(item, s, target));
            }
            return MixtureKernel.of(parts, weights);
        }
        if (name.startsWith(PROPOSAL_PREFIX)) {
            return new MetropolisHastings(userProposal(name.substring(PROPOSAL_PREFIX.length()).trim()), s.scale(),
                    s.adapt(), s.targetAcceptance());
        }
        if (name.startsWith(CLASS_PREFIX)) {
            return userKernel(name.substring(CLASS_PREFIX.length()).trim(), s);
        }
        CatalogEntry<Factory> entry = CATALOG.find(name);
        if (entry == null) {
            throw new InvalidInputException("unknown kernel '" + name + "': expected one of " + names() + ", '"
                    + PROPOSAL_PREFIX + "<class>', '" + CLASS_PREFIX + "<class>', 'cycle(k1,k2,…)' or "
                    + "'mixture(w1*k1,w2*k2,…)'");
        }
        if (CONTINUOUS.contains(entry.name())) {
            refuseContinuous(entry.name(), target);
        }
        return entry.factory().create(s, target);
    }

    /**
     * Refuses a kernel of {@link #CONTINUOUS} for a target it cannot sample: one with {@link DiscreteStates}, whose
     * discrete coordinates it would never move, or a {@link TransDimensionalTarget}, whose position changes length
     * with its model where the kernel's state and moves have one length (every chain failed in its first round).
     */
    private static void refuseContinuous(String kernel, Target target) {
        if (target instanceof DiscreteStates discrete) {
            throw new InvalidInputException("kernel '" + kernel + "' proposes continuous moves, but model "
                    + ModelCatalog.nameOf(target) + " has coordinates that are " + discrete.values() + ": every "
                    + "such proposal for them has density 0 and the chains would never move; use --kernel "
                    + discrete.kernels());
        }
        if (target instanceof TransDimensionalTarget) {
            throw new InvalidInputException("kernel '" + kernel + "' moves a position of fixed length, but model "
                    + ModelCatalog.nameOf(target) + " is trans-dimensional (its position's length changes with its "
                    + "model index): use --kernel rjmcmc, the reversible-jump sweep of its own moves");
        }
    }

    /** The kernels a target names as the ones that sample it, or null if any kernel may. */
    private static String ownKernels(Target target) {
        if (target instanceof DiscreteStates discrete) {
            return discrete.kernels();
        }
        return target instanceof TransDimensionalTarget ? "rjmcmc" : null;
    }

    private static Kernel<?> rwm(KernelSettings s, Target target) {
        return s.adapt() ? AdaptiveMetropolis.diagonal(s.scale(), true, s.targetAcceptance(), s.warmup())
                : new MetropolisHastings(new GaussianRandomWalk(), s.scale(), false, s.targetAcceptance());
    }

    private static Kernel<?> independence(KernelSettings s, Target target) {
        LaplaceApproximation laplace = laplace("independence", target);
        return new MetropolisHastings(IndependenceProposal.studentT(laplace.mode(), laplace.choleskyCov(),
                INDEPENDENCE_NU), s.scale(), s.adapt(), s.targetAcceptance());
    }

    private static Kernel<?> laplaceRwm(KernelSettings s, Target target) {
        LaplaceApproximation laplace = laplace("laplace-rwm", target);
        int d = laplace.dimension();
        double[] cov = laplace.covariance().clone();
        for (int i = 0; i < cov.length; i++) {
            cov[i] *= 2.38 * 2.38 / d;
        }
        return new MetropolisHastings(MultivariateNormalRandomWalk.of(cov, d), s.scale(), s.adapt(),
                s.targetAcceptance());
    }

    private static Kernel<?> nuts(KernelSettings s, Target target) {
        if (target != null) {
            Nuts.gradientOf(target);
        }
        return Nuts.of(s.warmup(), s.adapt(), s.targetAcceptance());
    }

    private static Kernel<?> rjmcmc(KernelSettings s, Target target) {
        RjmcmcKernel kernel = RjmcmcKernel.ofTargetSweep();
        if (target != null && !(target instanceof TransDimensionalTarget)) { // named as --model names it
            throw new InvalidInputException("kernel rjmcmc needs a reversible-jump model (one that defines its "
                    + "moves, such as rj_normal_mixture); model " + ModelCatalog.nameOf(target) + " does not");
        }
        if (target != null) {
            kernel.sweep(target); // checks the model's own sweep (its move labels) here, not in every task
        }
        return kernel.counted();
    }

    private static Kernel<?> gibbs(String name, GibbsSampler.Scan scan, Target target) {
        if (target != null && !(target instanceof FullConditionals)) {
            String own = ownKernels(target);
            throw new InvalidInputException("kernel '" + name + "' needs a model with full conditionals; "
                    + ModelCatalog.nameOf(target) + " has none (use " + (own == null ? "rwm, am or slice"
                            : "--kernel " + own) + ")");
        }
        return GibbsSampler.of(scan);
    }

    private static Kernel<?> colourGibbs(KernelSettings s, Target target) {
        if (target != null && !(target instanceof MarkovRandomField)) {
            String own = ownKernels(target);
            throw new InvalidInputException("kernel 'colour-gibbs' needs a Markov random field model; "
                    + ModelCatalog.nameOf(target) + " is not one"
                    + (own == null ? "" : " (use --kernel " + own + ")"));
        }
        return ColourGibbs.of(s.threads());
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

    /**
     * A user's kernel: a public constructor taking {@link KernelSettings}, else a public static
     * {@code of(KernelSettings)} returning the kernel, else a public no-argument constructor.
     */
    private static Kernel<?> userKernel(String className, KernelSettings settings) {
        String what = "--kernel " + CLASS_PREFIX + className + ":";
        @SuppressWarnings("rawtypes")
        Class<? extends Kernel> type = UserClasses.load("--kernel", className, Kernel.class, " (ship it with --jars "
                + "to spark-submit, or --classpath to submit/sparkmc)");
        try {
            try {
                Constructor<? extends Kernel> withSettings = type.getConstructor(KernelSettings.class);
                return withSettings.newInstance(settings);
            } catch (NoSuchMethodException e) {
                Method of = staticFactory(type);
                if (of != null) {
                    Object kernel = of.invoke(null, settings);
                    if (kernel == null) {
                        throw new InvalidInputException(what + " " + className + ".of(KernelSettings) returned null");
                    }
                    return (Kernel<?>) kernel;
                }
                return type.getConstructor().newInstance();
            }
        } catch (NoSuchMethodException e) {
            throw new InvalidInputException(what + " kernel class '" + className + "' needs a public constructor "
                    + "taking " + KernelSettings.class.getSimpleName() + ", a public static of("
                    + KernelSettings.class.getSimpleName() + ") or a public no-argument constructor");
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof InvalidInputException invalid) {
                throw invalid;
            }
            throw new InvalidInputException(what + " kernel class '" + className + "' failed to construct: " + cause,
                    cause);
        } catch (ReflectiveOperationException e) {
            throw new InvalidInputException(what + " kernel class '" + className + "' cannot be instantiated: " + e,
                    e);
        }
    }

    private static Method staticFactory(Class<?> type) {
        try {
            Method of = type.getMethod("of", KernelSettings.class);
            return Modifier.isStatic(of.getModifiers()) && Kernel.class.isAssignableFrom(of.getReturnType()) ? of
                    : null;
        } catch (NoSuchMethodException e) {
            return null;
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
