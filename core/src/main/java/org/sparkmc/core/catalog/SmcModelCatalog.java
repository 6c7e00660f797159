package org.sparkmc.core.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.smc.GuidedProposal;
import org.sparkmc.core.smc.ParticleKernel;
import org.sparkmc.core.smc.SmcModel;
import org.sparkmc.core.smc.models.LinearGaussianModel;
import org.sparkmc.core.smc.models.LocalLevelModel;
import org.sparkmc.core.smc.models.StochasticVolatilityModel;

/**
 * The state-space models the {@code smc} job's {@code --model} names, with their parameters from the config's
 * {@code model-params} block:
 * <ul>
 *   <li>{@code local-level} (alias {@code nile}): {@code observation_variance} (15099), {@code level_variance}
 *       (1469.1), {@code initial_mean} (1120), {@code initial_variance} (1e7) — Durbin &amp; Koopman's Nile model.</li>
 *   <li>{@code linear-gaussian}: matrices {@code F}, {@code Q}, {@code H}, {@code R}, {@code P0} (lists of rows) and
 *       the vector {@code m0}; x_n = F x_{n−1} + N(0, Q), y_n = H x_n + N(0, R), x_0 ~ N(m0, P0).</li>
 *   <li>{@code stochastic-volatility}: {@code phi} (0.91), {@code sigma} (1.0), {@code beta} (0.5);
 *       x_n = φ x_{n−1} + σ v_n, y_n = β exp(x_n/2) e_n.</li>
 * </ul>
 * Filters: {@code bootstrap} (propose from the model) or {@code guided} (the locally optimal proposal, for the two
 * linear-Gaussian models).
 */
public final class SmcModelCatalog {
    /** The other name of {@code local-level}. */
    public static final String NILE = "nile";

    /** Builds a model for a filter ({@code guided} or not) from its parameters. */
    @FunctionalInterface
    public interface Factory {
        SmcModel create(boolean guided, ModelParameters parameters);
    }

    /** The built-in state-space models, by name. */
    public static final Catalog<Factory> CATALOG = Catalog.of(
            new CatalogEntry<>("local-level", "random-walk level observed with noise (alias nile: Durbin & "
                    + "Koopman's Nile model)", SmcModelCatalog::localLevel),
            new CatalogEntry<>("linear-gaussian", "any linear-Gaussian model, matrices F, Q, H, R, P0 and m0",
                    SmcModelCatalog::linearGaussian),
            new CatalogEntry<>("stochastic-volatility", "log-volatility AR(1) observed through y = β·exp(x/2)·e; "
                    + "bootstrap filter only", SmcModelCatalog::stochasticVolatility));

    private SmcModelCatalog() {
    }

    /** The built-in names (and {@value #NILE}, an alias of {@code local-level}). */
    public static Set<String> names() {
        return CATALOG.names();
    }

    /**
     * The model {@code name} denotes, for {@code filter}.
     *
     * @throws InvalidInputException for an unknown filter or model (listing the known ones), a filter the model
     *                               does not support, or bad parameters
     */
    public static SmcModel create(String name, String filter, ModelParameters p) {
        return entry(name).factory().create(checkFilter(filter).equals("guided"), p);
    }

    /**
     * The filter {@code filter} names, {@code bootstrap} or {@code guided} (its refusal alone, which a caller can
     * lead by the option that gave it).
     *
     * @throws InvalidInputException for an unknown filter
     */
    public static String checkFilter(String filter) {
        String f = filter.trim().toLowerCase(Locale.ROOT);
        if (!f.equals("bootstrap") && !f.equals("guided")) {
            throw new InvalidInputException("unknown filter '" + filter + "'; expected bootstrap or guided");
        }
        return f;
    }

    /**
     * {@code name}, when it names a model (its refusal alone, which a caller can lead by the option that gave it).
     *
     * @throws InvalidInputException for an unknown model, listing the known ones
     */
    public static String checkName(String name) {
        entry(name);
        return name;
    }

    private static CatalogEntry<Factory> entry(String name) {
        String key = name.trim().toLowerCase(Locale.ROOT);
        CatalogEntry<Factory> entry = CATALOG.find(key.equals(NILE) ? "local-level" : key);
        if (entry == null) {
            throw new InvalidInputException("unknown model '" + name + "'; expected one of " + List.copyOf(names()));
        }
        return entry;
    }

    private static SmcModel localLevel(boolean guided, ModelParameters p) {
        LocalLevelModel m = new LocalLevelModel(p.getDoubleAbove("observation_variance", 15099, 0),
                p.getDoubleAbove("level_variance", 1469.1, 0), p.getDouble("initial_mean", 1120),
                p.getDoubleAbove("initial_variance", 1e7, 0));
        return new SmcModel("local-level", m, List.of("level"), filter(guided),
                guided ? ParticleKernel.guided(m, m.optimalProposal()) : ParticleKernel.bootstrap(m),
                m.asLinearGaussian());
    }

    private static SmcModel linearGaussian(boolean guided, ModelParameters p) {
        double[] m0 = p.getDoubleArray("m0");
        LinearGaussianModel m = new LinearGaussianModel(p.getMatrix("F"), p.getMatrix("Q"), p.getMatrix("H"),
                p.getMatrix("R"), m0, p.getMatrix("P0"));
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= m0.length; i++) {
            names.add("x" + i);
        }
        GuidedProposal q = guided ? m.optimalProposal() : null;
        return new SmcModel("linear-gaussian", m, names, filter(guided),
                guided ? ParticleKernel.guided(m, q) : ParticleKernel.bootstrap(m), m);
    }

    private static SmcModel stochasticVolatility(boolean guided, ModelParameters p) {
        if (guided) {
            throw new InvalidInputException("the stochastic-volatility model has no guided proposal; "
                    + "use the bootstrap filter (--filter bootstrap; filter = bootstrap in a config file)");
        }
        StochasticVolatilityModel m = new StochasticVolatilityModel(p.getDouble("phi", 0.91),
                p.getDoubleAbove("sigma", 1.0, 0), p.getDoubleAbove("beta", 0.5, 0));
        return new SmcModel("stochastic-volatility", m, List.of("log_volatility"), filter(false),
                ParticleKernel.bootstrap(m), null);
    }

    private static String filter(boolean guided) {
        return guided ? "guided" : "bootstrap";
    }
}
