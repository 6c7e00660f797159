package org.sparkmc.core.mcmc;

import java.util.List;

/**
 * What a cycle and a mixture of kernels share: their parts ({@link PartStates}), a chain's state as the list of its
 * parts' states, and the parts' statistics side by side. Subclasses decide which parts a step applies.
 */
abstract class CompositeKernel implements Kernel<List<Object>> {
    private static final long serialVersionUID = 1L;

    final PartStates parts;

    CompositeKernel(List<Kernel<?>> parts) {
        this.parts = new PartStates(parts);
    }

    public List<Kernel<?>> parts() {
        return parts.parts();
    }

    @Override
    public List<Object> initialState(int dimension) {
        return parts.initial(dimension);
    }

    @Override
    public StateCodec<List<Object>> codec() {
        return parts.codec();
    }

    @Override
    public List<String> statNames() {
        return parts.statNames();
    }
}
