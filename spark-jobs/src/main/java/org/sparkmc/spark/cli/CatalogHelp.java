package org.sparkmc.spark.cli;

import java.util.ListResourceBundle;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.catalog.ModelCatalog;
import org.sparkmc.core.catalog.SmcModelCatalog;

/**
 * The help of the options that name a catalog's entries ({@code chains --model}, {@code chains --kernel},
 * {@code smc --model}), written from the catalogs so that no command keeps a list of names of its own. Picocli reads
 * it as the commands' resource bundle: an option takes its description from the key in its {@code descriptionKey}.
 */
public final class CatalogHelp extends ListResourceBundle {
    /** The bundle's name, for {@code @Command(resourceBundle = …)}. */
    public static final String BUNDLE = "org.sparkmc.spark.cli.CatalogHelp";

    @Override
    protected Object[][] getContents() {
        return new Object[][] {
            {"chains.model", "Target: a built-in, " + ModelCatalog.CATALOG.helpList() + "; or "
                + ModelCatalog.CLASS_PREFIX + "com.example.MyTarget (your Target). Default: ${DEFAULT-VALUE}."},
            {"chains.kernel", "Transition kernel: " + KernelCatalog.CATALOG.helpList() + "; or "
                + KernelCatalog.PROPOSAL_PREFIX + "<class> (your Proposal), " + KernelCatalog.CLASS_PREFIX
                + "<class> (your Kernel), cycle(k1,k2,...), mixture(w1*k1,w2*k2,...). Default: ${DEFAULT-VALUE}."},
            // picocli looks an option's key up with the command's qualified name first: only chains reads this one
            {"sparkmc.chains.sync-via", SyncViaOption.HOW + ", nothing is checkpointed and the driver can hold every "
                + "draw" + SyncViaOption.WHICH},
            {"smc.model", "State-space model: " + SmcModelCatalog.CATALOG.helpList() + ". Default: "
                + "${DEFAULT-VALUE}."},
        };
    }
}
