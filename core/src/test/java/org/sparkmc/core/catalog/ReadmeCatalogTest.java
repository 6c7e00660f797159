package org.sparkmc.core.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The README's tables of kernels and models against the catalogs: the kernel table is the catalog's own Markdown
 * ({@link Catalog#markdownTable}), the models' tables and the {@code smc} job's {@code --model} row name exactly the
 * catalogs' names. A failure prints what the README should say.
 */
class ReadmeCatalogTest {
    static final String KERNEL_TABLE_HEADER = "kernel";
    static final String KERNEL_TABLE_DESCRIPTION = "what it does";
    private static String readme;

    @BeforeAll
    static void readReadme() throws IOException {
        Path path = Path.of("..", "README.md");
        if (!Files.exists(path)) {
            path = Path.of("README.md");
        }
        readme = Files.readString(path);
    }

    @Test
    void theKernelTableIsTheCatalogs() {
        String table = KernelCatalog.CATALOG.markdownTable(KERNEL_TABLE_HEADER, KERNEL_TABLE_DESCRIPTION);
        assertTrue(readme.contains(table), "README's kernel table (section 'Kernels') should be:\n" + table);
    }

    @Test
    void theModelTableNamesTheCatalogsModels() {
        assertEquals(List.copyOf(new java.util.TreeSet<>(ModelCatalog.builtInNames())),
                List.copyOf(new java.util.TreeSet<>(firstColumnNames(readme, "### Built-in models"))));
    }

    @Test
    void theSmcModelRowNamesTheCatalogsModels() {
        Set<String> expected = new LinkedHashSet<>(SmcModelCatalog.names());
        expected.add(SmcModelCatalog.NILE);
        assertEquals(expected, rowNames(readme, "## The `smc` job", "`--model`"));
    }

    /** The checks can fail: a README without a kernel's row, or with a model too many, does not pass them. */
    @Test
    void aReadmeThatDriftedFails() {
        String row = "| `nuts` | " + KernelCatalog.CATALOG.find("nuts").description() + " |\n";
        assertTrue(readme.contains(row));
        String withoutNuts = readme.replace(row, "");
        assertFalse(withoutNuts.contains(KernelCatalog.CATALOG.markdownTable(KERNEL_TABLE_HEADER,
                KERNEL_TABLE_DESCRIPTION)));
        String extraModel = readme.replace("| `bimodal` |", "| `bimodal`, `trimodal` |");
        assertFalse(firstColumnNames(extraModel, "### Built-in models").equals(ModelCatalog.builtInNames()));
        assertTrue(firstColumnNames(extraModel, "### Built-in models").contains("trimodal"));
    }

    /** The backquoted names in the first column of the first table after {@code heading}. */
    static Set<String> firstColumnNames(String text, String heading) {
        Set<String> names = new LinkedHashSet<>();
        for (String row : tableRows(text, heading)) {
            names.addAll(backquoted(row.split("\\|")[1]));
        }
        return names;
    }

    /** The backquoted names in the third column of the row that starts with {@code firstCell} (an option's row). */
    static Set<String> rowNames(String text, String heading, String firstCell) {
        for (String row : tableRows(text, heading)) {
            String[] cells = row.split("\\|");
            if (cells[1].trim().equals(firstCell)) {
                return new LinkedHashSet<>(backquoted(cells[3]));
            }
        }
        throw new AssertionError("no row " + firstCell + " after " + heading);
    }

    private static List<String> tableRows(String text, String heading) {
        int at = text.indexOf("\n" + heading + "\n");
        if (at < 0) {
            throw new AssertionError("README has no heading " + heading);
        }
        List<String> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : text.substring(at + 1).split("\n")) {
            if (line.startsWith("|")) {
                inTable = true;
                rows.add(line);
            } else if (inTable) {
                break;
            }
        }
        if (rows.size() < 3) {
            throw new AssertionError("no table after " + heading);
        }
        return rows.subList(2, rows.size());
    }

    private static List<String> backquoted(String cell) {
        List<String> names = new ArrayList<>();
        Matcher m = Pattern.compile("`([^`]+)`").matcher(cell);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }
}
