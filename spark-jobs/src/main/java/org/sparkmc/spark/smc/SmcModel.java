package org.sparkmc.spark.smc;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.smc.GuidedProposal;
import org.sparkmc.core.smc.ParticleKernel;
import org.sparkmc.core.smc.StateSpaceModel;
import org.sparkmc.core.smc.models.LinearGaussianModel;
import org.sparkmc.core.smc.models.LocalLevelModel;
import org.sparkmc.core.smc.models.StochasticVolatilityModel;

/**
 * A state-space model chosen by name for the {@code smc} job, with its parameters from the config's
 * {@code model-params} block: the model, the names of its state components, the particle kernel of the chosen
 * filter, and the linear-Gaussian form the Kalman filter solves (null for a non-linear model).
 *
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
public record SmcModel(String name, StateSpaceModel model, List<String> stateNames, String filter,
        ParticleKernel kernel, LinearGaussianModel linearGaussian) implements Serializable {

    /** The built-in model names. */
    public static final List<String> NAMES = List.of("local-level", "linear-gaussian", "stochastic-volatility");

    public static SmcModel create(String name, String filter, ModelParameters p) {
        String key = name.trim().toLowerCase(Locale.ROOT);
        String f = filter.trim().toLowerCase(Locale.ROOT);
        if (!f.equals("bootstrap") && !f.equals("guided")) {
            throw new InvalidInputException("unknown filter '" + filter + "'; expected bootstrap or guided");
        }
        boolean guided = f.equals("guided");
        switch (key) {
            case "local-level", "nile" -> {
                LocalLevelModel m = new LocalLevelModel(p.getDouble("observation_variance", 15099),
                        p.getDouble("level_variance", 1469.1), p.getDouble("initial_mean", 1120),
                        p.getDouble("initial_variance", 1e7));
                return new SmcModel("local-level", m, List.of("level"), f,
                        guided ? ParticleKernel.guided(m, m.optimalProposal()) : ParticleKernel.bootstrap(m),
                        m.asLinearGaussian());
            }
            case "linear-gaussian" -> {
                double[] m0 = p.getDoubleArray("m0");
                LinearGaussianModel m = new LinearGaussianModel(p.getMatrix("F"), p.getMatrix("Q"), p.getMatrix("H"),
                        p.getMatrix("R"), m0, p.getMatrix("P0"));
                List<String> names = new ArrayList<>();
                for (int i = 1; i <= m0.length; i++) {
                    names.add("x" + i);
                }
                GuidedProposal q = guided ? m.optimalProposal() : null;
                return new SmcModel(key, m, names, f,
                        guided ? ParticleKernel.guided(m, q) : ParticleKernel.bootstrap(m), m);
            }
            case "stochastic-volatility" -> {
                if (guided) {
                    throw new InvalidInputException("the stochastic-volatility model has no guided proposal; "
                            + "use filter = bootstrap");
                }
                StochasticVolatilityModel m = new StochasticVolatilityModel(p.getDouble("phi", 0.91),
                        p.getDouble("sigma", 1.0), p.getDouble("beta", 0.5));
                return new SmcModel(key, m, List.of("log_volatility"), f, ParticleKernel.bootstrap(m), null);
            }
            default -> throw new InvalidInputException("unknown model '" + name + "'; expected one of " + NAMES);
        }
    }

    public int stateDimension() {
        return model.stateDimension();
    }
}
