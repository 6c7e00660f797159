# Stan's NUTS on the posteriors NutsBenchmark measures sparkmc's NUTS on, the same way: 4 chains in sequence on one
# core, 1,000 warm-up iterations (not timed), the same draws per chain, min bulk-ESS (rstan::monitor) over the
# quantities sparkmc reports per second of sampling. Usage: Rscript bench/stan/stan_peers.R <shared data dir> <project data dir> [runs]
suppressPackageStartupMessages({
  library(rstan)
  library(jsonlite)
})
args <- commandArgs(trailingOnly = TRUE)
shared <- args[1]
project <- args[2]
runs <- if (length(args) >= 3) as.integer(args[3]) else 2
rstan_options(auto_write = FALSE)
options(mc.cores = 1)
here <- dirname(sub("--file=", "", grep("--file=", commandArgs(FALSE), value = TRUE)))

pdb <- file.path(shared, "posteriordb")
eight <- fromJSON(file.path(project, "eight_schools", "eight_schools.json"))
kidiq <- fromJSON(file.path(project, "kidiq", "kidiq.json"))
pima <- fromJSON(file.path(project, "pima", "pima.json"))
predictors <- c("npreg", "glu", "bp", "skin", "bmi", "ped", "age")
X <- sapply(predictors, function(p) { v <- pima[[p]]; (v - mean(v)) / sd(v) })

posteriors <- list(
  list(name = "eight_schools_noncentered", draws = 20000, data = eight, report = "^(theta\\[|mu$|tau$)",
       file = file.path(pdb, "eight_schools-eight_schools_noncentered", "models_stan_eight_schools_noncentered.stan")),
  list(name = "kidiq-kidscore_momiq", draws = 20000, data = kidiq, report = ".",
       file = file.path(pdb, "kidiq-kidscore_momiq", "models_stan_kidscore_momiq.stan")),
  list(name = "Pima logistic", draws = 10000, report = ".",
       data = list(N = nrow(X), P = ncol(X), X = X, y = as.integer(pima$type)),
       file = file.path(here, "pima_logistic.stan")))

cat(sprintf("R %s, rstan %s, CXXFLAGS as R's Makeconf; %s\n", getRversion(), packageVersion("rstan"),
            format(Sys.time(), tz = "UTC", usetz = TRUE)))
for (p in posteriors) {
  t0 <- Sys.time()
  # posteriordb's models use the newer array syntax, which rstan 2.21's parser predates: array[J] real y -> real y[J]
  code <- gsub("array\\[(\\w+)\\] (real|int)(<[^>]*>)? (\\w+)", "\\2\\3 \\4[\\1]", readLines(p$file))
  model <- stan_model(model_code = paste(code, collapse = "\n"), model_name = gsub("[^A-Za-z0-9]", "_", p$name))
  compile <- as.numeric(difftime(Sys.time(), t0, units = "secs"))
  for (r in seq_len(runs)) {
    fit <- sampling(model, data = p$data, chains = 4, cores = 1, warmup = 1000, iter = 1000 + p$draws,
                    seed = 20261127 + r, refresh = 0)
    sampling_s <- sum(get_elapsed_time(fit)[, "sample"])
    mon <- monitor(as.array(fit), warmup = 0, print = FALSE)
    # the quantities sparkmc's model reports (eight schools: theta, mu, tau, as posteriordb's reference does)
    params <- grep(p$report, setdiff(rownames(mon), "lp__"), value = TRUE)
    ess <- min(mon[params, "Bulk_ESS"])
    cat(sprintf("RESULT posterior=%s run=%d draws_per_chain=%d sampling_s=%.3f min_bulk_ess=%.0f ess_per_s=%.0f max_rhat=%.4f compile_s=%.1f\n",
                gsub(" ", "_", p$name), r, p$draws, sampling_s, ess, ess / sampling_s, max(mon[params, "Rhat"]),
                compile))
  }
}
