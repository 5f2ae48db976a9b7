package agent

import (
	"sort"
	"strings"
)

// price is a model's USD per million tokens.
type price struct{ in, out, cacheRead, cacheWrite float64 }

// prices are the models' list prices, by model name prefix (the longest
// prefix wins, so "claude-opus-4-5" is not priced as "claude-opus-4").
// Claude: https://docs.anthropic.com/en/docs/about-claude/pricing, and for
// the models newer than that page, the catalog claude 2.1.330 bakes in
// (its pricing_tiers), which is what its total_cost_usd uses; cache writes
// are the 5-minute ones. OpenAI: https://openai.com/api/pricing (codex
// reports cached input apart; it has no cache-write price).
var prices = map[string]price{
	"claude-3-5-haiku":  {0.8, 4, 0.08, 1},
	"claude-haiku-4-5":  {1, 5, 0.1, 1.25},
	"claude-haiku-5-5":  {0.1, 0.5, 0.01, 0.125},
	"claude-3-5-sonnet": {3, 15, 0.3, 3.75},
	"claude-3-7-sonnet": {3, 15, 0.3, 3.75},
	"claude-sonnet-4":   {3, 15, 0.3, 3.75},
	"claude-sonnet-5":   {2, 10, 0.2, 2.5},
	"claude-sonnet-5-5": {2, 10, 0.1, 2.5},
	"claude-opus-4":     {15, 75, 1.5, 18.75},
	"claude-opus-4-5":   {5, 25, 0.5, 6.25},
	"claude-opus-4-6":   {5, 25, 0.5, 6.25},
	"claude-opus-4-7":   {5, 25, 0.5, 6.25},
	"claude-opus-4-8":   {5, 25, 0.5, 6.25},
	"claude-opus-5":     {5, 25, 0.5, 6.25},
	"claude-opus-5-5":   {4, 20, 0.2, 5},
	"gpt-5":             {1.25, 10, 0.125, 0},
	"gpt-5-mini":        {0.25, 2, 0.025, 0},
	"gpt-5-nano":        {0.05, 0.4, 0.005, 0},
	"gpt-5.2":           {1.75, 14, 0.175, 0},
	"gpt-4.1":           {2, 8, 0.5, 0},
	"o3":                {2, 8, 0.5, 0},
	"o4-mini":           {1.1, 4.4, 0.275, 0},
}

// defaultPrice prices a model the table does not know (a new release, a
// fake's "gpt-fake"): a mid-range model's list price, Claude Sonnet 4's.
var defaultPrice = price{3, 15, 0.3, 3.75}

// priceOf is model's price: its longest matching prefix in prices.
func priceOf(model string) price {
	keys := make([]string, 0, len(prices))
	for k := range prices {
		if strings.HasPrefix(model, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return defaultPrice
	}
	sort.Slice(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	return prices[keys[0]]
}

// cost is what s's tokens cost at model's price.
func cost(model string, s Spend) float64 {
	p := priceOf(model)
	return (float64(s.InputTokens)*p.in + float64(s.OutputTokens)*p.out +
		float64(s.CacheReadTokens)*p.cacheRead + float64(s.CacheWriteTokens)*p.cacheWrite) / 1e6
}

// add is s and t together.
func (s Spend) add(t Spend) Spend {
	return Spend{CostUSD: s.CostUSD + t.CostUSD, InputTokens: s.InputTokens + t.InputTokens,
		OutputTokens: s.OutputTokens + t.OutputTokens, CacheReadTokens: s.CacheReadTokens + t.CacheReadTokens,
		CacheWriteTokens: s.CacheWriteTokens + t.CacheWriteTokens}
}
