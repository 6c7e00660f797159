package org.sparkmc.core.mcmc;

import org.sparkmc.core.catalog.KernelCatalog;

/**
 * Breaks a layering rule on purpose, for {@code LayeringTest} only: a class in a sampler's package that looks a
 * kernel up in the catalog. It lives in the tests, which the layering rules do not import.
 */
public final class LayeringProbe {
    private LayeringProbe() {
    }

    /** A kernel looked up by name, which no sampler may do. */
    public static Kernel<?> lookUp() {
        return KernelCatalog.create("rwm", new KernelSettings(1, true, Double.NaN));
    }
}
