package org.sparkmc.core.catalog;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The built-in entries of one kind (models, kernels, state-space models), in the order help texts and the README
 * list them. The single list of their names: the commands' help, the error for an unknown name and the README's
 * tables all come from, or are tested against, a catalog.
 *
 * @param <F> the entries' factory type
 */
public final class Catalog<F> {
    private final Map<String, CatalogEntry<F>> entries;

    private Catalog(Map<String, CatalogEntry<F>> entries) {
        this.entries = entries;
    }

    /** A catalog of {@code entries}, in that order; a name may appear once. */
    @SafeVarargs
    public static <F> Catalog<F> of(CatalogEntry<F>... entries) {
        Map<String, CatalogEntry<F>> byName = new LinkedHashMap<>();
        for (CatalogEntry<F> entry : entries) {
            if (byName.put(entry.name(), entry) != null) {
                throw new IllegalArgumentException("catalog lists '" + entry.name() + "' twice");
            }
        }
        return new Catalog<>(Collections.unmodifiableMap(byName));
    }

    /** The names, in the catalog's order; printed as {@code [a, b, c]} in error messages. */
    public Set<String> names() {
        return entries.keySet();
    }

    /** The entries, in the catalog's order. */
    public List<CatalogEntry<F>> entries() {
        return List.copyOf(entries.values());
    }

    /** The entry named {@code name}, or null. */
    public CatalogEntry<F> find(String name) {
        return entries.get(name);
    }

    /** "a (what a is), b (what b is), …": the entries for a command's help. */
    public String helpList() {
        return entries.values().stream().map(e -> e.name() + " (" + e.description() + ")")
                .collect(Collectors.joining(", "));
    }

    /** A Markdown table of the entries, one row each: {@code | `name` | description |} under the given header. */
    public String markdownTable(String nameHeader, String descriptionHeader) {
        StringBuilder table = new StringBuilder("| " + nameHeader + " | " + descriptionHeader + " |\n|---|---|\n");
        for (CatalogEntry<F> e : entries.values()) {
            table.append("| `").append(e.name()).append("` | ").append(e.description()).append(" |\n");
        }
        return table.toString();
    }
}
