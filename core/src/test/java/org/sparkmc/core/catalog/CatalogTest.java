package org.sparkmc.core.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A catalog keeps its entries in order, refuses a name twice, and writes help and Markdown from them. */
class CatalogTest {
    private static final Catalog<String> CATALOG = Catalog.of(new CatalogEntry<>("b", "the second letter", "B"),
            new CatalogEntry<>("a", "the first letter", "A"));

    @Test
    void namesKeepTheCatalogsOrder() {
        assertEquals(List.of("b", "a"), List.copyOf(CATALOG.names()));
        assertEquals("[b, a]", CATALOG.names().toString());
        assertEquals("A", CATALOG.find("a").factory());
        assertEquals(null, CATALOG.find("c"));
    }

    @Test
    void aNameListedTwiceIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Catalog.of(new CatalogEntry<>("a", "x", 1),
                new CatalogEntry<>("a", "y", 2)));
        assertThrows(IllegalArgumentException.class, () -> new CatalogEntry<>("a", " ", 1));
    }

    @Test
    void helpAndMarkdownComeFromTheEntries() {
        assertEquals("b (the second letter), a (the first letter)", CATALOG.helpList());
        assertEquals("| letter | what |\n|---|---|\n| `b` | the second letter |\n| `a` | the first letter |\n",
                CATALOG.markdownTable("letter", "what"));
    }
}
