package org.sparkmc.core.catalog;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.Set;
import java.util.function.Function;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.UserClasses;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.core.model.CollapsedGaussianMixture;
import org.sparkmc.core.model.EightSchoolsNoncentered;
import org.sparkmc.core.model.GaussianMixtureGibbs;
import org.sparkmc.core.model.IsingDenoising;
import org.sparkmc.core.model.KidscoreMomiq;
import org.sparkmc.core.model.LogisticRegression;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.rjmcmc.CentreClustering;
import org.sparkmc.core.rjmcmc.NormalMixture;
import org.sparkmc.core.rjmcmc.TwoMeans;

/**
 * The targets the {@code chains} job's {@code --model} names: a built-in from {@link #CATALOG}, or
 * {@code class:com.example.MyTarget} for a user's class on the classpath (a public class implementing
 * {@code Target} with a public constructor taking {@link ModelParameters}, or a public no-argument constructor).
 * A model reads all its parameters in its constructor: the jobs refuse any configured parameter the model did not
 * ask for there ({@link ModelParameters#consulted()}).
 */
public final class ModelCatalog {
    public static final String CLASS_PREFIX = "class:";

    /** The built-in models, by name. */
    public static final Catalog<Function<ModelParameters, Target>> CATALOG = Catalog.of(
            new CatalogEntry<>("bimodal", "the lectures' two-component mixture 0.3·exp(−0.2x²) + "
                    + "0.7·exp(−0.2(x−10)²)", new BuiltIn(BimodalMixture.class, BimodalMixture::new)),
            new CatalogEntry<>("eight_schools_noncentered", "posteriordb's eight schools, non-centred, any number "
                    + "of schools", new BuiltIn(EightSchoolsNoncentered.class, EightSchoolsNoncentered::new)),
            new CatalogEntry<>("gmm", "Gaussian mixture with Gibbs full conditionals",
                    new BuiltIn(GaussianMixtureGibbs.class, GaussianMixtureGibbs::new)),
            new CatalogEntry<>("gmm_collapsed", "Gaussian mixture, collapsed (Student-t predictive)",
                    new BuiltIn(CollapsedGaussianMixture.class, CollapsedGaussianMixture::new)),
            new CatalogEntry<>("ising_denoising", "Ising image denoising (a Markov random field)",
                    new BuiltIn(IsingDenoising.class, IsingDenoising::new)),
            new CatalogEntry<>("kidscore_momiq", "posteriordb's kidiq-kidscore_momiq regression",
                    new BuiltIn(KidscoreMomiq.class, KidscoreMomiq::new)),
            new CatalogEntry<>("logistic_regression", "Bayesian logistic regression; set its data and "
                    + "'predictors' as conf/chains-pima.conf does",
                    new BuiltIn(LogisticRegression.class, LogisticRegression::new)),
            new CatalogEntry<>("rj_clustering", "reversible jump: the lectures' clustering, unknown number of "
                    + "centres", new BuiltIn(CentreClustering.class, CentreClustering::new)),
            new CatalogEntry<>("rj_normal_mixture", "reversible jump: Richardson & Green's normal mixture with an "
                    + "unknown number of components", new BuiltIn(NormalMixture.class, NormalMixture::new)),
            new CatalogEntry<>("rj_two_means", "reversible jump: one mean or two, by split/merge or birth/death",
                    new BuiltIn(TwoMeans.class, TwoMeans::new)));

    private ModelCatalog() {
    }

    /** A built-in model's factory that knows the class it builds, so that {@link #nameOf} can name a target. */
    private record BuiltIn(Class<? extends Target> type, Function<ModelParameters, Target> build)
            implements Function<ModelParameters, Target> {
        @Override
        public Target apply(ModelParameters parameters) {
            return build.apply(parameters);
        }
    }

    /**
     * The name a user gives {@code target} in {@code --model}, for messages: a built-in's catalog name
     * ({@code rj_normal_mixture}), else {@code class:} and the class's name.
     */
    public static String nameOf(Target target) {
        for (CatalogEntry<Function<ModelParameters, Target>> entry : CATALOG.entries()) {
            if (entry.factory() instanceof BuiltIn builtIn && builtIn.type() == target.getClass()) {
                return entry.name();
            }
        }
        return CLASS_PREFIX + target.getClass().getName();
    }

    /** The built-in short names. */
    public static Set<String> builtInNames() {
        return CATALOG.names();
    }

    /**
     * The target {@code name} denotes, built with {@code parameters}.
     *
     * @throws InvalidInputException for no name, an unknown name (listing the known ones) or a bad user class
     */
    public static Target create(String name, ModelParameters parameters) {
        checkName(name);
        if (name.startsWith(CLASS_PREFIX)) {
            return fromClass(name.substring(CLASS_PREFIX.length()).trim(), parameters);
        }
        return CATALOG.find(name).factory().apply(parameters);
    }

    /**
     * {@code name}, when it names a built-in model or a class ({@code class:…}, loaded only by {@link #create}):
     * the refusals of the name alone, which a caller can lead by the option that gave it.
     *
     * @throws InvalidInputException for no name or an unknown one (listing the known ones)
     */
    public static String checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new InvalidInputException("no model given: name a built-in model " + builtInNames()
                    + " or a class as '" + CLASS_PREFIX + "com.example.MyTarget'");
        }
        if (!name.startsWith(CLASS_PREFIX) && CATALOG.find(name) == null) {
            throw new InvalidInputException("unknown model '" + name + "': expected one of " + builtInNames()
                    + " or '" + CLASS_PREFIX + "<fully qualified class name>'");
        }
        return name;
    }

    private static Target fromClass(String className, ModelParameters parameters) {
        Class<? extends Target> type = UserClasses.load("model", className, Target.class, " (ship it with --jars to "
                + "spark-submit, or --classpath to submit/sparkmc)");
        try {
            try {
                Constructor<? extends Target> withParameters = type.getConstructor(ModelParameters.class);
                return withParameters.newInstance(parameters);
            } catch (NoSuchMethodException e) {
                return type.getConstructor().newInstance();
            }
        } catch (NoSuchMethodException e) {
            throw new InvalidInputException("model class '" + className + "' needs a public constructor taking "
                    + ModelParameters.class.getSimpleName() + " or a public no-argument constructor");
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof InvalidInputException invalid) {
                throw invalid;
            }
            throw new InvalidInputException("model class '" + className + "' failed to construct: " + cause, cause);
        } catch (ReflectiveOperationException e) {
            throw new InvalidInputException("model class '" + className + "' cannot be instantiated: " + e, e);
        }
    }
}
