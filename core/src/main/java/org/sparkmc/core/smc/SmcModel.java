package org.sparkmc.core.smc;

import java.io.Serializable;
import java.util.List;
import org.sparkmc.core.smc.models.LinearGaussianModel;

/**
 * A state-space model as the {@code smc} job runs it: its name, the model, the names of its state components, the
 * filter ({@code bootstrap} or {@code guided}) with its particle kernel, and the linear-Gaussian form the Kalman
 * filter solves (null for a non-linear model). Built by name by {@code org.sparkmc.core.catalog.SmcModelCatalog}.
 */
public record SmcModel(String name, StateSpaceModel model, List<String> stateNames, String filter,
        ParticleKernel kernel, LinearGaussianModel linearGaussian) implements Serializable {

    public int stateDimension() {
        return model.stateDimension();
    }
}
