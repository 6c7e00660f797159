package org.sparkmc.core.catalog;

import java.util.Objects;

/**
 * One thing a user picks by name: its name, a one-line description (for the commands' help and the README's
 * tables) and the factory that builds it.
 *
 * @param <F> the factory's type
 */
public record CatalogEntry<F>(String name, String description, F factory) {
    public CatalogEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(factory, "factory");
        if (name.isBlank() || description.isBlank()) {
            throw new IllegalArgumentException("a catalog entry needs a name and a description");
        }
    }
}
