package org.sparkmc.core.model;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.UserClasses;

/**
 * Builds a {@link Target} from a name in a job's configuration: a built-in short name ({@code bimodal},
 * {@code eight_schools_noncentered}, {@code kidscore_momiq}, {@code logistic_regression}, {@code ising_denoising},
 * {@code gmm}, {@code gmm_collapsed}) or {@code class:com.example.MyTarget} for a user's class on the classpath
 * (a public class implementing {@code Target} with a public constructor taking {@link ModelParameters}, or a
 * public no-argument constructor). A model reads all its parameters in its constructor: the jobs refuse any
 * configured parameter the model did not ask for there ({@link ModelParameters#consulted()}).
 */
public final class ModelRegistry {
    public static final String CLASS_PREFIX = "class:";

    private static final Map<String, Function<ModelParameters, Target>> BUILT_IN = new TreeMap<>(Map.of(
            "bimodal", BimodalMixture::new,
            "eight_schools_noncentered", EightSchoolsNoncentered::new,
            "rj_normal_mixture", org.sparkmc.core.rjmcmc.NormalMixture::new,
            "rj_two_means", org.sparkmc.core.rjmcmc.TwoMeans::new,
            "rj_clustering", org.sparkmc.core.rjmcmc.CentreClustering::new,
            "kidscore_momiq", KidscoreMomiq::new,
            "logistic_regression", LogisticRegression::new,
            "ising_denoising", IsingDenoising::new,
            "gmm", GaussianMixtureGibbs::new,
            "gmm_collapsed", CollapsedGaussianMixture::new));

    private ModelRegistry() {
    }

    /** The built-in short names. */
    public static java.util.Set<String> builtInNames() {
        return BUILT_IN.keySet();
    }

    public static Target create(String name, ModelParameters parameters) {
        if (name == null || name.isBlank()) {
            throw new InvalidInputException("no model given: name a built-in model " + BUILT_IN.keySet()
                    + " or a class as '" + CLASS_PREFIX + "com.example.MyTarget'");
        }
        if (name.startsWith(CLASS_PREFIX)) {
            return fromClass(name.substring(CLASS_PREFIX.length()).trim(), parameters);
        }
        Function<ModelParameters, Target> factory = BUILT_IN.get(name);
        if (factory == null) {
            throw new InvalidInputException("unknown model '" + name + "': expected one of " + BUILT_IN.keySet()
                    + " or '" + CLASS_PREFIX + "<fully qualified class name>'");
        }
        return factory.apply(parameters);
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
